import { describe, expect, it } from "vitest";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { faqService, faqStructuredData, listPublishedFaqEntries } from "./faq.server.ts";

describe.each(databaseKinds)("FAQ (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("answers in German, falling back to English per field, with the Markdown rendered safely", async () => {
    await faqService.create(database.db, testAdmin, {
      question: "Can I buy prints?",
      question_de: "Kann ich Abzüge kaufen?",
      answer: "Yes, **write** to me. <script>alert(1)</script> [x](javascript:alert(1))",
      answer_de: "",
      active: true,
    });

    const [german] = await listPublishedFaqEntries(database.db, "de");

    expect(german?.question).toBe("Kann ich Abzüge kaufen?");
    expect(german?.answerHtml).toContain("<strong>write</strong>");
    expect(german?.answerHtml).not.toContain("<script>");
    expect(german?.answerHtml).not.toContain('href="javascript:');
  });

  it("refuses an empty answer", async () => {
    const result = await faqService.create(database.db, testAdmin, { question: "Why?", answer: " ", active: true });

    expect(result).toEqual({ ok: false, reason: "invalid", fieldErrors: { answer: "admin.content.error.required" } });
    expect(await faqService.listAll(database.db)).toEqual([]);
  });
});

describe("FAQ structured data", () => {
  it("is FAQPage JSON in which no text can close the script element", () => {
    const json = faqStructuredData([
      { id: "1", question: "What is </script><script>alert(1)</script>?", answerHtml: "<p>An answer</p>\n" },
    ]);

    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual({
      "@context": "https://schema.org",
      "@type": "FAQPage",
      mainEntity: [
        {
          "@type": "Question",
          name: "What is </script><script>alert(1)</script>?",
          acceptedAnswer: { "@type": "Answer", text: "<p>An answer</p>" },
        },
      ],
    });
  });
});
