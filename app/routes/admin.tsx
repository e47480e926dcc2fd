import { LayoutDashboard } from "lucide-react";
import { isRouteErrorResponse, NavLink, Outlet } from "react-router";
import { Toaster } from "sonner";
import { requireAdmin, requireAdminMiddleware } from "#app/auth/session.server.ts";
import { adminSections } from "#app/components/admin/admin-sections.ts";
import { StatusPage } from "#app/components/status-page.tsx";
import { adminDictionaryFor } from "#app/i18n/admin-dictionary.ts";
import { type AdminLayoutData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { useRootData, useTranslate } from "#app/lib/root-data.ts";
import type { Route } from "./+types/admin";

export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware];

export async function loader({ request, url, context }: Route.LoaderArgs): Promise<AdminLayoutData> {
  const admin = requireAdmin(url, context);
  const { lang } = languageOf(request);
  return { email: admin.email, lang, dictionary: adminDictionaryFor(lang) };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return [...pageMeta(rootSeo(matches), location.pathname, { title: "Admin" }), { name: "robots", content: "noindex" }];
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
    isActive
      ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white"
      : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
  }`;

export default function AdminLayout() {
  const t = useAdminTranslate();
  const theme = useRootData()?.theme ?? "dark";
  return (
    <div className="flex flex-col gap-6 lg:flex-row">
      <nav aria-label={t("admin.nav.label")} className="lg:w-52 lg:shrink-0">
        <ul className="flex gap-1 overflow-x-auto pb-2 lg:flex-col lg:overflow-visible lg:pb-0">
          <li>
            <NavLink to="/admin" end className={navLinkClass}>
              <LayoutDashboard aria-hidden="true" className="size-4" />
              {t("admin.nav.dashboard")}
            </NavLink>
          </li>
          {adminSections.map(({ to, title, icon: Icon }) => (
            <li key={to}>
              <NavLink to={to} className={navLinkClass}>
                <Icon aria-hidden="true" className="size-4" />
                {t(title)}
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

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const t = useTranslate();
  const hasRoot = useRootData() !== undefined;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <StatusPage
        status={403}
        title={hasRoot ? t("forbidden.title") : "No access"}
        text={hasRoot ? t("forbidden.text") : ""}
      />
    );
  }
  throw error;
}
