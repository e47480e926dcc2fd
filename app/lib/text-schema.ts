import { z } from "zod";

/**
 * The one rule for text and ids that reach the database (issue 9). Control characters other than tab and
 * line breaks have no business in anything a person types or a form sends back, and PostgreSQL cannot even
 * store a NUL byte in a text column ("invalid byte sequence"). C0, DEL and C1 count; so does a lone
 * surrogate, which is no character at all (the UTF-8 encoder would turn it into U+FFFD behind our back).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is exactly what it looks for
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** For text that is only a label (an uploaded file's name): made well-formed, control characters and line breaks removed. */
export function removeControlCharacters(value: string): string {
  return value
    .toWellFormed()
    .replace(new RegExp(CONTROL_CHARACTERS.source, "g"), "")
    .replace(/[\n\r\u2028\u2029\t]/g, " ");
}

/** What separates lines: a single-line field holds none of these. */
const LINE_BREAKS = /[\n\r\u2028\u2029]/;

/** True when the text is well-formed and holds no control characters (tab and line breaks allowed). */
export function withoutControlCharacters(value: string): boolean {
  return value.isWellFormed() && !CONTROL_CHARACTERS.test(value);
}

/** True when the text is fit for a single-line field: no control characters and no line breaks. */
export function isSingleLine(value: string): boolean {
  return withoutControlCharacters(value) && !LINE_BREAKS.test(value);
}

/**
 * Why a text was refused, as a stable code each screen says in its own language
 * (see `translateFieldErrors` in `app/lib/field-errors.ts` for the admin screens).
 */
export type TextProblem = "required" | "tooLong" | "control" | "lineBreak" | "invalid";

export type TextRule = {
  /** The most characters (UTF-16 units, as the browser's `maxLength` counts them) after normalising. */
  max: number;
  /** Empty (after trimming) is refused. */
  required?: boolean;
  /** Line breaks allowed (stored as `\n`); otherwise a line break is refused. */
  multiline?: boolean;
  /** Leading and trailing white space removed (default); Markdown keeps its indentation. */
  trim?: boolean;
  /** The error message per problem (default: the problem's code). */
  messages?: Partial<Record<TextProblem, string>>;
};

/**
 * A text field: missing counts as empty; anything but a string is `invalid`; control characters, lone
 * surrogates and (single-line) line breaks are refused as such, never silently removed; the rest is
 * normalised to NFC (the same word typed on two systems is stored the same), line endings to `\n`, trimmed,
 * and checked for length.
 */
export function textSchema(rule: TextRule) {
  const message = (problem: TextProblem) => rule.messages?.[problem] ?? problem;
  const clean = rule.multiline ? withoutControlCharacters : isSingleLine;
  const lineProblem = (value: string) => (withoutControlCharacters(value) ? "lineBreak" : "control");
  return z.preprocess(
    (value) => value ?? "",
    z
      .string({ error: message("invalid") })
      .superRefine((value, context) => {
        if (!clean(value)) context.addIssue({ code: "custom", message: message(lineProblem(value)), abort: true });
      })
      .transform((value) => {
        let text = value.normalize("NFC");
        if (rule.multiline) text = text.replace(/\r\n?/g, "\n");
        return rule.trim === false ? text : text.trim();
      })
      .pipe(
        z
          .string()
          .min(rule.required ? 1 : 0, { error: message("required") })
          .max(rule.max, { error: message("tooLong") }),
      ),
  );
}

/**
 * A row id as forms and addresses carry it: our ids are UUIDs, better-auth's are letters and digits.
 * Anything else cannot name a row, so it never reaches a query.
 */
export const ROW_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export const rowIdSchema = z.string().regex(ROW_ID_PATTERN);

/** For query parameters: the id when it could be one, else null (treated like an absent parameter). */
export function rowIdOrNull(value: string | null | undefined): string | null {
  return typeof value === "string" && ROW_ID_PATTERN.test(value) ? value : null;
}
