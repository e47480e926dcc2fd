import { z } from "zod";
import { activeFlag, optionalText, requiredText } from "#app/domains/content/content-schema.ts";

export const FAQ_QUESTION_MAX = 300;
export const FAQ_ANSWER_MAX = 10_000;

/** An FAQ entry as the admin form sends it; the answers are Markdown. */
export const faqSchema = z.object({
  question: requiredText(FAQ_QUESTION_MAX),
  question_de: optionalText(FAQ_QUESTION_MAX),
  answer: requiredText(FAQ_ANSWER_MAX, { multiline: true }),
  answer_de: optionalText(FAQ_ANSWER_MAX, { multiline: true }),
  active: activeFlag,
});

export type FaqInput = z.infer<typeof faqSchema>;
