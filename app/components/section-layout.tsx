import type { LucideIcon } from "lucide-react";
import { ChevronDown } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { NavLink, Outlet, useLocation } from "react-router";
import { Toaster } from "sonner";
import { useShownTheme } from "#app/web/root-data.ts";

export type SectionLink = { to: string; label: string; icon: LucideIcon; end?: boolean };

/** A link of the section navigation: the current section stands out. */
function sectionNavLinkClass({ isActive }: { isActive: boolean }) {
  return `flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
    isActive
      ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white"
      : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
  }`;
}

/** The link whose section the address is in (as NavLink decides it), or none. */
export function currentSection(links: SectionLink[], pathname: string): SectionLink | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return links.find(({ to, end }) => path === to || (!end && path.startsWith(`${to}/`)));
}

function SectionLinks({ links, className }: { links: SectionLink[]; className: string }) {
  return (
    <ul className={className}>
      {links.map(({ to, label: text, icon: Icon, end }) => (
        <li key={to}>
          <NavLink to={to} end={end} className={sectionNavLinkClass}>
            <Icon aria-hidden="true" className="size-4 shrink-0" />
            {text}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * The frame of a signed-in area (admin, account): its sections as a navigation, the section's page, and the
 * area's toasts. On a wide screen the sections are a column beside the page; from a tablet's width a list
 * that wraps; on a phone a disclosure whose button names the current section (a strip scrolling sideways hid
 * it), opening the whole list. It is a native <details>, so it works before JavaScript; with it, it closes
 * after a choice.
 */
export function SectionLayout({
  label,
  links,
  navWidth,
  children,
}: {
  label: string;
  links: SectionLink[];
  navWidth: string;
  /** What the area adds beside its pages (the admin's live updates). */
  children?: ReactNode;
}) {
  const theme = useShownTheme();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const current = currentSection(links, location.pathname);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.pathname]);
  const CurrentIcon = current?.icon;
  return (
    <div className="flex flex-col gap-6 lg:flex-row">
      <nav aria-label={label} className={`${navWidth} lg:shrink-0`}>
        <details
          ref={menu}
          className="section-menu group rounded-lg border border-zinc-200 sm:hidden dark:border-zinc-800"
        >
          <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-2 focus-visible:outline-2 focus-visible:outline-indigo-500 [&::-webkit-details-marker]:hidden">
            <span className="flex min-w-0 flex-1 flex-col">
              <span className="text-xs text-zinc-600 dark:text-zinc-300">{label}</span>
              <span className="flex items-center gap-2 text-sm font-medium">
                {CurrentIcon ? <CurrentIcon aria-hidden="true" className="size-4 shrink-0" /> : null}
                {current?.label ?? label}
              </span>
            </span>
            <ChevronDown aria-hidden="true" className="size-5 shrink-0 transition-transform group-open:rotate-180" />
          </summary>
          <SectionLinks
            links={links}
            className="flex flex-col gap-1 border-t border-zinc-200 p-2 dark:border-zinc-800"
          />
        </details>
        <SectionLinks links={links} className="hidden flex-wrap gap-1 sm:flex lg:flex-col" />
      </nav>
      <div className="min-w-0 flex-1">
        {children}
        <Outlet />
      </div>
      <Toaster theme={theme} position="bottom-right" richColors closeButton />
    </div>
  );
}
