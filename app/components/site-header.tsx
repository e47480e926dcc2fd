import { Menu, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { type MenuItem, menuItemsFor } from "#app/domains/content/menu-sections.ts";
import type { MessageKey } from "#app/i18n/i18n.ts";
import { useRootData, useTranslate } from "#app/web/root-data.ts";
import { LanguageSwitch, ThemeToggle } from "./preference-toggles.tsx";

// The content pages leave the menu while they have nothing published (root loader, menu-sections.server.ts);
// the owner sets the order (the setting `menu_order`).
const navItems: MenuItem<MessageKey>[] = [
  { id: "gallery", to: "/", label: "nav.gallery" },
  { id: "home", to: "/home", label: "nav.home" },
  { id: "links", to: "/links", label: "nav.links", section: "links" },
  { id: "faq", to: "/faq", label: "nav.faq", section: "faq" },
  { id: "videos", to: "/videos", label: "nav.videos", section: "videos" },
  { id: "blog", to: "/blog", label: "nav.blog", section: "blog" },
  { id: "contact", to: "/contact", label: "nav.contact", section: "contact" },
];

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
    isActive
      ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white"
      : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
  }`;

function NavItems() {
  const t = useTranslate();
  const root = useRootData();
  return (
    <>
      {(root ? menuItemsFor(navItems, root.menu, root.menuOrder) : navItems).map((item) => (
        <li key={item.to}>
          {/* The blog's entry stays current on its tag pages and posts (/blog/…); the gallery's only on "/". */}
          <NavLink to={item.to} end={item.id !== "blog"} className={linkClass} prefetch="intent">
            {t(item.label)}
          </NavLink>
        </li>
      ))}
      {root?.user?.isAdmin ? (
        <li>
          <NavLink to="/admin" className={linkClass}>
            {t("nav.admin")}
          </NavLink>
        </li>
      ) : null}
      {root?.user ? (
        <li>
          <NavLink to="/account" className={linkClass}>
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
        <button
          type="submit"
          className="rounded-md px-3 py-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          {t("nav.signOut")}
        </button>
      </Form>
    );
  }
  const back = location.pathname === "/auth" ? "" : `?redirectTo=${encodeURIComponent(location.pathname)}`;
  // A quiet text link like the navigation, not a filled button: registration is by invitation, and the visitors
  // of a personal site are readers, not people the page should urge to sign in.
  return (
    <Link
      to={`/auth${back}`}
      className="block rounded-md px-3 py-2 text-sm font-medium text-zinc-700 underline-offset-4 hover:text-zinc-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-300 dark:hover:text-white"
    >
      {t("nav.signIn")}
    </Link>
  );
}

export function SiteHeader() {
  const root = useRootData();
  const t = useTranslate();
  const location = useLocation();
  const mobileMenu = useRef<HTMLDetailsElement>(null);

  // The mobile menu is a <details> so it works without JavaScript; with it, it closes after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => {
    if (mobileMenu.current) mobileMenu.current.open = false;
  }, [location.pathname]);

  if (!root) return null;
  const siteName = root.site.name || root.site.logoText;
  return (
    <header className="relative border-b border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-5xl items-center gap-4 px-4 py-3 sm:px-6">
        <Link
          to="/"
          className="mr-auto flex min-w-0 items-center gap-2 rounded-md text-lg font-bold tracking-tight focus-visible:outline-2 focus-visible:outline-indigo-500"
          aria-label={t("nav.homeLink", { site: siteName })}
        >
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
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <LanguageSwitch />
          <div className="hidden md:block">
            <AccountAction />
          </div>
          <details ref={mobileMenu} className="group md:hidden">
            <summary
              className="flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-200 dark:hover:bg-zinc-800 [&::-webkit-details-marker]:hidden"
              aria-label={t("nav.openMenu")}
            >
              <Menu aria-hidden="true" className="size-5 group-open:hidden" />
              <X aria-hidden="true" className="hidden size-5 group-open:block" />
            </summary>
            <nav
              aria-label={t("nav.main")}
              className="absolute inset-x-0 top-full z-40 border-b border-zinc-200 bg-white px-4 pb-4 shadow-lg dark:border-zinc-800 dark:bg-zinc-950"
            >
              <ul className="flex flex-col gap-1 pt-2">
                <NavItems />
              </ul>
              <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
                <AccountAction />
              </div>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
