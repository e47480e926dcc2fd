import { data } from "react-router";
import { ContactForm, ContactSent } from "#app/components/contact/contact-form.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { contactEnabled } from "#app/domains/contact/contact.server.ts";
import {
  type ContactSubmission,
  contactPageData,
  submitContactForm,
} from "#app/domains/contact/contact-page.server.ts";
import type { ContactResult } from "#app/domains/contact/contact-result.ts";
import type { SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { clientAddressContext } from "#app/lib/request-context.ts";
import { passRetryAfter } from "#app/lib/retry-after.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { useTranslateWith } from "#app/web/root-data.ts";
import { PRIVATE_CACHE_CONTROL, requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/contact";

/**
 * Every page carries a fresh token (its time and challenge: contact-guard.server.ts), so no cache may keep it; the
 * Retry-After of a refusal for too many messages is passed on.
 */
export function headers(args: Route.HeadersArgs) {
  const passed = new Headers(passRetryAfter(args));
  passed.set("Cache-Control", PRIVATE_CACHE_CONTROL);
  return passed;
}

/** The page is there only while the owner has the form on; otherwise it is an unknown address. */
function requireContactEnabled(settings: SiteSettings): void {
  if (!contactEnabled(settings)) throw data(null, { status: 404 });
}

/** A refusal's status: the visitor's form to correct (400), or the limits' wait (429, with Retry-After). */
function answerOf(submission: ContactSubmission) {
  if (submission.refused === undefined) return submission.result;
  if (submission.refused === "too-many") {
    const retryAfter = String(Math.ceil(submission.waitMs / 1000));
    return data(submission.result, { status: 429, headers: { "Retry-After": retryAfter } });
  }
  return data(submission.result, { status: 400 });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireContactEnabled(await requestSettings(context));
  // Not kept by any cache on client navigations either (`.data` requests).
  return data(contactPageData(runtimeOf(context), languageOf(request).lang), {
    headers: { "Cache-Control": PRIVATE_CACHE_CONTROL },
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const settings = await requestSettings(context);
  requireContactEnabled(settings);
  const submission = await submitContactForm({
    runtime: runtimeOf(context),
    settings,
    lang: languageOf(request).lang,
    client: context.get(clientAddressContext),
    form: await readForm(request),
  });
  return answerOf(submission);
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, { title: loaderData?.dictionary["contact.title"] });
}

export default function ContactPage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useTranslateWith(loaderData.dictionary);
  const result = actionData as ContactResult | undefined;
  return (
    <>
      <PageHeader title={t("contact.title")} subtitle={t("contact.intro")} />
      {result?.ok ? (
        <ContactSent t={t} email={result.email} />
      ) : (
        <ContactForm t={t} token={loaderData.token} result={result} />
      )}
    </>
  );
}
