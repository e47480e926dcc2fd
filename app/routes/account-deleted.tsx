import { Link } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { accountTranslatorFor } from "#app/i18n/account-dictionary.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import type { Route } from "./+types/account-deleted";

/**
 * Where a person lands after deleting their own account, signed out. Its few words come from the loader, so that the
 * account strings stay out of every visitor's JavaScript.
 */
export function loader({ request }: Route.LoaderArgs) {
  const t = accountTranslatorFor(languageOf(request).lang);
  return { title: t("account.deleted.title"), text: t("account.deleted.text"), home: t("account.deleted.home") };
}

export function meta({ matches, location, loaderData }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, loaderData?.title ?? "");
}

export default function AccountDeleted({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader title={loaderData.title} subtitle={loaderData.text} />
      <Link
        to="/"
        className="rounded-md font-medium text-indigo-700 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
      >
        {loaderData.home}
      </Link>
    </div>
  );
}
