import type { LucideIcon } from "lucide-react";
import { NavLink, Outlet } from "react-router";
import { Toaster } from "sonner";
import { useShownTheme } from "#app/lib/root-data.ts";

export type SectionLink = { to: string; label: string; icon: LucideIcon; end?: boolean };

/** A link of the section navigation: the current section stands out. */
function sectionNavLinkClass({ isActive }: { isActive: boolean }) {
  return `flex items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
    isActive
      ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white"
      : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
  }`;
}

/**
 * The frame of a signed-in area (admin, account): its sections as a navigation (a scrolling row on a phone, a
 * column beside the page on a wide screen), the section's page, and the area's toasts.
 */
export function SectionLayout({ label, links, navWidth }: { label: string; links: SectionLink[]; navWidth: string }) {
  const theme = useShownTheme();
  return (
    <div className="flex flex-col gap-6 lg:flex-row">
      <nav aria-label={label} className={`${navWidth} lg:shrink-0`}>
        <ul className="flex gap-1 overflow-x-auto pb-2 lg:flex-col lg:overflow-visible lg:pb-0">
          {links.map(({ to, label: text, icon: Icon, end }) => (
            <li key={to}>
              <NavLink to={to} end={end} className={sectionNavLinkClass}>
                <Icon aria-hidden="true" className="size-4" />
                {text}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
      <Toaster theme={theme} position="bottom-right" richColors closeButton />
    </div>
  );
}
