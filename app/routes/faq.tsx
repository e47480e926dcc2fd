import { ChevronDown } from "lucide-react";
import { EmptyState, MarkdownContent, PageHeader } from "#app/components/page-header.tsx";
import { faqStructuredData, listPublishedFaqEntries } from "#app/domains/faq/faq.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { pageMeta, rootSeo } from "#app/web/meta.ts";
import { pageTexts } from "#app/web/page-content.server.ts";
import { useTranslate } from "#app/web/root-data.ts";
import type { Route } from "./+types/faq";

export async function loader({ request, context }: Route.LoaderArgs) {
  const [texts, entries] = await Promise.all([
    pageTexts(request, context, ["faq_page_title", "faq_page_subtitle"]),
    listPublishedFaqEntries(runtimeOf(context).database.db, languageOf(request).lang),
  ]);
  return { ...texts, entries, structuredData: entries.length > 0 ? faqStructuredData(entries) : null };
}

export function meta({ loaderData, matches, location }: Route.MetaArgs) {
  return pageMeta(rootSeo(matches), location.pathname, {
    title: loaderData?.faq_page_title,
    description: loaderData?.faq_page_subtitle,
  });
}

export default function FaqPage({ loaderData }: Route.ComponentProps) {
  const t = useTranslate();
  return (
    <>
      <PageHeader title={loaderData.faq_page_title} subtitle={loaderData.faq_page_subtitle} />
      {loaderData.entries.length === 0 ? (
        <EmptyState>{t("empty.faq")}</EmptyState>
      ) : (
        // Native disclosure widgets: keyboard and screen-reader support without any script.
        <ul aria-label={t("faq.listLabel")} className="max-w-3xl space-y-3">
          {loaderData.entries.map((entry) => (
            // The search's results link here (/faq#faq-<id>).
            <li key={entry.id} id={`faq-${entry.id}`} className="scroll-mt-24">
              <details className="group rounded-xl border border-zinc-200 dark:border-zinc-800">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-xl px-5 py-4 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 [&::-webkit-details-marker]:hidden">
                  <span>{entry.question}</span>
                  <ChevronDown
                    aria-hidden="true"
                    className="size-5 shrink-0 text-zinc-500 transition-transform group-open:rotate-180 dark:text-zinc-400"
                  />
                </summary>
                <div className="px-5 pb-5">
                  <MarkdownContent html={entry.answerHtml} />
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      {loaderData.structuredData ? (
        <script
          type="application/ld+json"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with "<" escaped (faqStructuredData)
          dangerouslySetInnerHTML={{ __html: loaderData.structuredData }}
        />
      ) : null}
    </>
  );
}
