import { data } from "react-router";
import { StatusPage } from "#app/components/status-page.tsx";
import { translatorFor } from "#app/i18n/i18n.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import type { Route } from "./+types/not-found";

export async function loader({ request }: Route.LoaderArgs) {
  const t = translatorFor(languageOf(request).lang);
  return data({ title: t("notFound.title"), text: t("notFound.text") }, { status: 404 });
}

export function meta({ matches, location, loaderData }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, loaderData?.title);
}

export default function NotFoundPage({ loaderData }: Route.ComponentProps) {
  return <StatusPage status={404} title={loaderData.title} text={loaderData.text} />;
}
