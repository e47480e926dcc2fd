import { describe, expect, it } from "vitest";
import { z } from "zod";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { fieldErrorsOf, translateFieldErrors } from "./field-errors.ts";
import { textSchema } from "./text-schema.ts";

describe("admin field errors", () => {
  const form = z.object({ title: textSchema({ max: 5 }), note: textSchema({ max: 5, multiline: true }) });

  it("keeps the first problem per field", () => {
    const parsed = form.safeParse({ title: "a\nb", note: "x\u0000".repeat(9) });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(fieldErrorsOf(parsed.error)).toEqual({ title: "lineBreak", note: "control" });
  });

  it("says text problems, admin keys and anything else in the admin's language", () => {
    const errors = {
      title: "lineBreak",
      url: "admin.links.error.url",
      odd: "something else",
      count: "admin.invites.error.count",
    };
    const params = { count: { max: 100 } };
    expect(translateFieldErrors(adminTranslatorFor("en"), errors, params)).toEqual({
      title: "This field takes a single line: please remove the line breaks.",
      url: expect.stringContaining("https://"),
      odd: "This value is not valid.",
      count: "Enter a whole number from 1 to 100.",
    });
    const german = translateFieldErrors(adminTranslatorFor("de"), errors, params);
    expect(german.title).toContain("nur eine Zeile");
    expect(german.odd).toBe("Dieser Wert ist ungültig.");
    expect(german.count).toContain("100");
  });
});
