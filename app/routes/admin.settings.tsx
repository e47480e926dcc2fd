import { SettingsScreen } from "#app/components/admin/settings/settings-screen.tsx";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import type { Route } from "./+types/admin.settings";
import { settingsAction, settingsLoader } from "./admin.settings.server.ts";

export function loader({ url, context }: Route.LoaderArgs) {
  return settingsLoader({ url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return settingsAction({ request, url, context });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.settings");
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  return <SettingsScreen loaderData={loaderData} actionData={actionData} />;
}
