import { Menu, X } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { type MenuItem, menuItemsFor } from "#app/domains/content/menu-sections.ts";
import type { MessageKey } from "#app/i18n/i18n.ts";
import { useRootData, useTranslate } from "#app/web/root-data.ts";
import { LanguageSwitch, ThemeToggle } from "./preference-toggles.tsx";
import { SearchField, useSearchShortcut } from "./search-field.tsx";

// The content pages leave the menu while they have nothing published (root loader, menu-sections.server.ts);
// the owner sets the order (the setting `menu_order`). Each entry is [id, address, section]; its words are `nav.<id>`
// (written once each, as this list is in every page's JavaScript).
const navItems: MenuItem<MessageKey>[] = (
  [
    ["gallery", "/"],
    ["home", "/home"],
    ["links", "/links", "links"],
    ["faq", "/faq", "faq"],
    ["videos", "/videos", "videos"],
    ["blog", "/blog", "blog"],
    ["contact", "/contact", "contact"],
    ["albums", "/albums", "albums"],
  ] as const
).map(([id, to, section]) => ({ id, to, label: `nav.${id}` as const, section }));

function NavItems() {
  const t = useTranslate();
  const root = useRootData();
  return (
    <>
      {(root ? menuItemsFor(navItems, root.menu, root.menuOrder) : navItems).map((item) => (
        <li key={item.to}>
          {/* The blog's entry stays current on its tag pages and posts (/blog/…); the gallery's only on "/". */}
          <NavLink to={item.to} end={item.id !== "blog"} className="site-nav-link" prefetch="intent">
            {t(item.label)}
          </NavLink>
        </li>
      ))}
      {root?.user?.isAdmin ? (
        <li>
          <NavLink to="/admin" className="site-nav-link">
            {t("nav.admin")}
          </NavLink>
        </li>
      ) : null}
      {root?.user ? (
        <li>
          <NavLink to="/account" className="site-nav-link">
            {t("nav.account")}
          </NavLink>
        </li>
      ) : null}
    </>
  );
}

function AccountAction() {
  const t = useTranslate();
  const root = useRootData();
  const location = useLocation();
  if (root?.user) {
    return (
      <Form method="post" action="/auth/sign-out">
        <button type="submit" className="site-header-action">
          {t("nav.signOut")}
        </button>
      </Form>
    );
  }
  const back = location.pathname === "/auth" ? "" : `?redirectTo=${encodeURIComponent(location.pathname)}`;
  // A quiet text link like the navigation, not a filled button: registration is by invitation, and the visitors
  // of a personal site are readers, not people the page should urge to sign in.
  return (
    <Link to={`/auth${back}`} className="site-sign-in">
      {t("nav.signIn")}
    </Link>
  );
}

export function SiteHeader() {
  const root = useRootData();
  const t = useTranslate();
  const location = useLocation();
  const mobileMenu = useRef<HTMLDetailsElement>(null);

  // The mobile menu is a <details> so it works without JavaScript; with it, it closes after navigating. Not at
  // hydration: a phone on a slow line may have opened it before the scripts ran, and it must stay open then.
  const address = location.pathname + location.search;
  const menuAddress = useRef(address);
  useEffect(() => {
    const menu = mobileMenu.current;
    if (menuAddress.current !== address && menu) {
      // The focus would stay on the closed menu's search field (a hit chosen there) until the browser's next look at
      // it: a "/" pressed at once was typed into the hidden field instead of opening the menu (seen on a loaded CI).
      const focused = document.activeElement;
      if (focused instanceof HTMLElement && menu.contains(focused)) focused.blur();
      menu.open = false;
    }
    menuAddress.current = address;
  }, [address]);
  useSearchShortcut(
    useCallback(() => {
      if (mobileMenu.current) mobileMenu.current.open = true;
    }, []),
  );

  if (!root) return null;
  const siteName = root.site.name || root.site.logoText;
  return (
    <header className="relative border-b border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-5xl items-center gap-4 px-4 py-3 sm:px-6">
        <Link to="/" className="site-logo-link" aria-label={t("nav.homeLink", { site: siteName })}>
          {/* The logo sits beside the name, as tall as its line: a square one is a mark, a wide one is capped so
              that the name and the header's buttons still fit on a phone. */}
          {root.site.logoUrl ? (
            <img
              src={root.site.logoUrl}
              alt=""
              className="h-8 w-auto max-w-20 shrink-0 object-contain object-left sm:max-w-40"
            />
          ) : null}
          {/* A long name wraps (a word longer than the line breaks anywhere) rather than being cut. */}
          <span className="site-name min-w-0 leading-snug [overflow-wrap:anywhere]">
            {root.site.logoText || siteName}
          </span>
        </Link>
        <nav aria-label={t("nav.main")} className="hidden md:block">
          <ul className="flex items-center gap-1">
            <NavItems />
          </ul>
        </nav>
        <div className="hidden md:block">
          <SearchField variant="header" />
        </div>
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <LanguageSwitch />
          <div className="hidden md:block">
            <AccountAction />
          </div>
          <details ref={mobileMenu} className="group md:hidden">
            <summary className="site-menu-button" aria-label={t("nav.openMenu")}>
              <Menu aria-hidden="true" className="size-5 group-open:hidden" />
              <X aria-hidden="true" className="hidden size-5 group-open:block" />
            </summary>
            <div className="site-menu-panel">
              <SearchField variant="menu" />
              <nav aria-label={t("nav.main")}>
                <ul className="flex flex-col gap-1 pt-2">
                  <NavItems />
                </ul>
                <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
                  <AccountAction />
                </div>
              </nav>
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
