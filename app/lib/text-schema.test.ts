import { describe, expect, it } from "vitest";
import {
  isSingleLine,
  removeControlCharacters,
  rowIdOrNull,
  rowIdSchema,
  textSchema,
  withoutControlCharacters,
} from "./text-schema.ts";

const problemOf = (schema: ReturnType<typeof textSchema>, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe("the shared text rule", () => {
  const line = textSchema({ max: 10 });
  const lines = textSchema({ max: 20, multiline: true });

  it("refuses NUL, other C0 controls, DEL and C1 controls, in one line and in many", () => {
    for (const bad of ["a\u0000b", "\u0001", "\u001b[31m", "\u007f", "\u0080", "x\u009f"]) {
      expect(problemOf(line, bad), JSON.stringify(bad)).toBe("control");
      expect(problemOf(lines, bad), JSON.stringify(bad)).toBe("control");
    }
  });

  it("refuses a lone surrogate, which is no character at all", () => {
    expect(problemOf(line, "a\ud800")).toBe("control");
    expect(problemOf(lines, "\udfffb")).toBe("control");
    expect(line.parse("😀")).toBe("😀");
  });

  it("takes tab everywhere, line breaks only in multi-line fields (stored as \\n)", () => {
    expect(line.parse("a\tb")).toBe("a\tb");
    for (const breaking of ["a\nb", "a\r\nb", "a\rb", "a\u2028b"]) expect(problemOf(line, breaking)).toBe("lineBreak");
    expect(lines.parse("a\r\nb\rc\nd")).toBe("a\nb\nc\nd");
  });

  it("normalises to NFC and trims before counting", () => {
    const decomposed = "Cafe\u0301";
    expect(line.parse(`  ${decomposed}  `)).toBe("Café");
    expect(textSchema({ max: 4 }).parse(decomposed)).toBe("Café");
    expect(problemOf(line, "x".repeat(11))).toBe("tooLong");
    expect(textSchema({ max: 5, trim: false, multiline: true }).parse("  - a")).toBe("  - a");
  });

  it("treats missing as empty, refuses empty when required, and anything but text", () => {
    expect(line.parse(undefined)).toBe("");
    expect(problemOf(textSchema({ max: 5, required: true }), "   ")).toBe("required");
    expect(problemOf(line, ["a", "b"])).toBe("invalid");
    expect(problemOf(line, 42)).toBe("invalid");
  });

  it("names problems in the caller's words", () => {
    const schema = textSchema({ max: 2, messages: { tooLong: "long!", control: "ctl!" } });
    expect(problemOf(schema, "abc")).toBe("long!");
    expect(problemOf(schema, "\u0000")).toBe("ctl!");
    expect(problemOf(schema, "a\nb")).toBe("lineBreak");
  });

  it("lets right-to-left marks, zero-width characters and markup through: they are text", () => {
    for (const text of ["\u202eabc", "a\u200bb", "<b>&amp;", "' OR 1=1 --"]) expect(lines.parse(text)).toBe(text);
  });

  it("has predicates that agree with it", () => {
    expect(withoutControlCharacters("a\nb\tc")).toBe(true);
    expect(withoutControlCharacters("a\u0085")).toBe(false);
    expect(isSingleLine("a\nb")).toBe(false);
    expect(isSingleLine("a b")).toBe(true);
  });

  it("cleans a label instead of refusing it", () => {
    expect(removeControlCharacters("photo\u0000\u0085.jpg")).toBe("photo.jpg");
    expect(removeControlCharacters("a\nb\ud800")).toBe("a b\ufffd");
  });
});

describe("the shared row id", () => {
  it("takes UUIDs and better-auth's ids, nothing else", () => {
    for (const id of ["0b8f4a3c-1d2e-4f56-8a9b-0c1d2e3f4a5b", "Xy7abcDEF0123456789abcdefABCDEF0"]) {
      expect(rowIdSchema.safeParse(id).success, id).toBe(true);
      expect(rowIdOrNull(id)).toBe(id);
    }
    for (const id of ["", "a\u0000", "a b", "../x", "a,b", "x".repeat(101), "é"]) {
      expect(rowIdSchema.safeParse(id).success, JSON.stringify(id)).toBe(false);
      expect(rowIdOrNull(id)).toBeNull();
    }
    expect(rowIdOrNull(null)).toBeNull();
  });
});
