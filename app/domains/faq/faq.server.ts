import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type ContentMeta, contentMeta, contentService, localized } from "#app/domains/content/content.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { renderMarkdown } from "#app/lib/markdown.server.ts";
import { faqSchema } from "./faq-schema.ts";

export const faqService = contentService({
  table: "faq_entries",
  area: "faq",
  schema: faqSchema,
  columns: (input) => ({
    question: input.question,
    question_de: input.question_de,
    answer: input.answer,
    answer_de: input.answer_de,
  }),
  target: (row) => row.question,
  describe: (row) =>
    JSON.stringify({
      question: row.question,
      question_de: row.question_de,
      answer: row.answer,
      answer_de: row.answer_de,
    }),
});

export type AdminFaqEntry = ContentMeta & { question: string; question_de: string; answer: string; answer_de: string };

export async function listFaqEntriesForAdmin(db: Kysely<Database>): Promise<AdminFaqEntry[]> {
  const rows = await faqService.listAll(db);
  return rows.map((row) => ({
    ...contentMeta(row),
    question: row.question,
    question_de: row.question_de,
    answer: row.answer,
    answer_de: row.answer_de,
  }));
}

export type PublicFaqEntry = { id: string; question: string; answerHtml: string };

/** Active entries in display order in the visitor's language; the answers rendered safely from Markdown. */
export async function listPublishedFaqEntries(db: Kysely<Database>, lang: Language): Promise<PublicFaqEntry[]> {
  const rows = await faqService.listActive(db);
  return rows.map((row) => ({
    id: row.id,
    question: localized(row.question, row.question_de, lang),
    answerHtml: renderMarkdown(localized(row.answer, row.answer_de, lang)),
  }));
}

/** schema.org FAQPage data as JSON that is safe inside a <script> element. */
export function faqStructuredData(entries: PublicFaqEntry[]): string {
  const data = {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: entries.map((entry) => ({
      "@type": "Question",
      name: entry.question,
      acceptedAnswer: { "@type": "Answer", text: entry.answerHtml.trim() },
    })),
  };
  // "<" escaped, so no text can close the script element or open a comment.
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
