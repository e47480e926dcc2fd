import { LayoutDashboard } from "lucide-react";
import { isRouteErrorResponse } from "react-router";
import { AdminLive } from "#app/components/admin/admin-live.tsx";
import { adminSections } from "#app/components/admin/admin-sections.ts";
import { SectionLayout } from "#app/components/section-layout.tsx";
import { StatusPage } from "#app/components/status-page.tsx";
import { adminDictionaryFor } from "#app/i18n/admin-dictionary.ts";
import { type AdminLayoutData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import { useRootData, useTranslate } from "#app/web/root-data.ts";
import { requireAdmin, requireAdminMiddleware } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin";

export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware];

export async function loader({ request, url, context }: Route.LoaderArgs): Promise<AdminLayoutData> {
  const admin = requireAdmin(url, context);
  const { lang } = languageOf(request);
  return { email: admin.email, lang, dictionary: adminDictionaryFor(lang) };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, "Admin");
}

export default function AdminLayout() {
  const t = useAdminTranslate();
  const links = [
    { to: "/admin", label: t("admin.nav.dashboard"), icon: LayoutDashboard, end: true },
    ...adminSections.map(({ title, ...link }) => ({ ...link, label: t(title) })),
  ];
  return (
    <SectionLayout label={t("admin.nav.label")} links={links} navWidth="lg:w-52">
      <AdminLive />
    </SectionLayout>
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
