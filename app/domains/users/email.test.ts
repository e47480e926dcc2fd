import { describe, expect, it } from "vitest";
import { isValidEmail, normalizeEmail } from "./email.ts";

describe("e-mail normalisation", () => {
  it.each([
    ["  Jo@Example.COM  ", "jo@example.com"],
    ["JO@EXAMPLE.COM", "jo@example.com"],
    ["\tjo@example.com\n", "jo@example.com"],
    ["jo@example.com", "jo@example.com"],
    ["   ", ""],
  ])("turns %j into %j", (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });

  it("accepts ordinary addresses and refuses what is not one", () => {
    expect(isValidEmail("jo@example.com")).toBe(true);
    expect(isValidEmail("jo.smith+photos@mail.example.org")).toBe(true);
    expect(isValidEmail("not-an-email")).toBe(false);
    expect(isValidEmail("jo@")).toBe(false);
    expect(isValidEmail("@example.com")).toBe(false);
    expect(isValidEmail("jo smith@example.com")).toBe(false);
    expect(isValidEmail("")).toBe(false);
  });

  it("refuses control characters and lone surrogates (the shared text rule) before any lookup", () => {
    for (const address of [
      "jo\u0000@example.com",
      "jo@exam\u0085ple.com",
      "jo\ud800@example.com",
      "jo@example.com\n",
    ]) {
      expect(isValidEmail(address), JSON.stringify(address)).toBe(false);
    }
  });

  it("refuses addresses longer than 254 characters", () => {
    const local = "a".repeat(64);
    const domain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.example`;
    const address = `${local}@${domain}`;
    expect(address.length).toBeGreaterThan(254);
    expect(isValidEmail(address)).toBe(false);
  });
});
