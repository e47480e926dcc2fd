import { FileText, Images, KeyRound, Settings, Users } from "lucide-react";
import { isRouteErrorResponse } from "react-router";
import { requireAdmin } from "#app/auth/session.server.ts";
import { StatusPage } from "#app/components/status-page.tsx";
import type { MessageKey } from "#app/i18n/i18n.ts";
import { pageMeta, rootSeo } from "#app/lib/meta.ts";
import { useRootData, useTranslate } from "#app/lib/root-data.ts";
import type { Route } from "./+types/admin";

export async function loader({ url, context }: Route.LoaderArgs) {
  const admin = requireAdmin(url, context);
  return { email: admin.email };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return [...pageMeta(rootSeo(matches), location.pathname, { title: "Admin" }), { name: "robots", content: "noindex" }];
}

const sections: { title: MessageKey; text: MessageKey; icon: typeof Settings }[] = [
  { title: "admin.section.settings", text: "admin.section.settingsText", icon: Settings },
  { title: "admin.section.invites", text: "admin.section.invitesText", icon: KeyRound },
  { title: "admin.section.users", text: "admin.section.usersText", icon: Users },
  { title: "admin.section.content", text: "admin.section.contentText", icon: Images },
];

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  return (
    <div>
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.heading")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.intro")}</p>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          {t("admin.signedInAs", { email: loaderData.email })}
        </p>
      </header>
      <ul className="grid gap-4 sm:grid-cols-2">
        {sections.map(({ title, text, icon: Icon }) => (
          <li key={title} className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
            <div className="flex items-center gap-3">
              <Icon aria-hidden="true" className="size-5 text-indigo-700 dark:text-indigo-300" />
              <h2 className="font-semibold">{t(title)}</h2>
            </div>
            <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t(text)}</p>
            <p className="mt-3 inline-flex items-center gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-300">
              <FileText aria-hidden="true" className="size-3.5" />
              {t("admin.comingSoon")}
            </p>
          </li>
        ))}
      </ul>
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
