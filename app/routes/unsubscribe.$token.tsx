import { Form, useNavigation } from "react-router";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { useTranslate } from "#app/web/root-data.ts";
import type { Route } from "./+types/unsubscribe.$token";
import { UNSUBSCRIBE_HEADERS, unsubscribeAction, unsubscribeLoader } from "./unsubscribe.$token.server.ts";

export function headers() {
  return UNSUBSCRIBE_HEADERS;
}

export function loader({ params, context }: Route.LoaderArgs) {
  return unsubscribeLoader({ params, context });
}

export function action({ params, context }: Route.ActionArgs) {
  return unsubscribeAction({ params, context });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return [...pageMeta(rootSeo(matches), location.pathname, {}), { name: "robots", content: "noindex, nofollow" }];
}

/** The unsubscribe page: one button that posts; then what happened, in words. */
export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useTranslate();
  const busy = useNavigation().state !== "idle";
  const state = actionData?.state ?? loaderData.state;
  return (
    <section className="mx-auto max-w-md" aria-labelledby="unsubscribe-heading">
      <h1 id="unsubscribe-heading" className="text-2xl font-bold tracking-tight">
        {t("unsubscribe.title")}
      </h1>
      {state === "ask" ? (
        <Form method="post" className="mt-6 grid gap-4">
          <p className="text-zinc-600 dark:text-zinc-300">{t("unsubscribe.text")}</p>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button
            type="submit"
            disabled={busy}
            className="justify-self-start rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
          >
            {t("unsubscribe.submit")}
          </button>
        </Form>
      ) : (
        <p role="status" className="mt-4 text-zinc-700 dark:text-zinc-200">
          {t(state === "done" ? "unsubscribe.done" : "unsubscribe.invalid")}
        </p>
      )}
    </section>
  );
}
