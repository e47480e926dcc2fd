import { describe, expect, it } from "vitest";
import { adminDe, adminEn } from "./admin-dictionary.ts";
import { de } from "./de.ts";
import { en } from "./en.ts";
import { dictionaryFor } from "./i18n.server.ts";
import { createTranslator, isLanguage } from "./i18n.ts";
import { searchDe } from "./search.de.ts";
import { searchEn } from "./search.en.ts";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe.each([
  { name: "site", english: en as Record<string, string>, german: de as Record<string, string> },
  { name: "admin", english: adminEn as Record<string, string>, german: adminDe as Record<string, string> },
  { name: "search", english: searchEn as Record<string, string>, german: searchDe as Record<string, string> },
])("the German $name dictionary", ({ english, german }) => {
  it("has exactly the keys of the English one", () => {
    expect(Object.keys(german).sort()).toEqual(Object.keys(english).sort());
  });

  it("has no empty text in either language", () => {
    for (const [key, text] of [...Object.entries(english), ...Object.entries(german)]) {
      expect(text.trim(), `empty text for ${key}`).not.toBe("");
    }
  });

  it("uses the same placeholders as the English text, key by key", () => {
    for (const key of Object.keys(english)) {
      expect(placeholders(german[key] ?? ""), key).toEqual(placeholders(english[key] ?? ""));
    }
  });
});

describe("the German site dictionary", () => {
  it("is really German where the interface differs", () => {
    expect(de["common.loading"]).toBe("Lädt...");
    expect(en["common.loading"]).toBe("Loading...");
    expect(de["auth.inviteRequired"]).not.toBe(en["auth.inviteRequired"]);
  });
});

describe("the spec's messages (§8)", () => {
  it("are the exact English texts", () => {
    expect(en["auth.inviteRequired"]).toBe("Invite code required");
    expect(en["auth.inviteRequiredText"]).toBe("Please enter a valid invite code to register.");
    expect(en["auth.inviteInvalid"]).toBe("Invalid invite code");
    expect(en["auth.inviteInvalidText"]).toBe("The invite code is invalid or has already been used.");
    expect(en["auth.signUpFailed"]).toBe("Sign up failed");
    expect(en["auth.signInFailed"]).toBe("Sign in failed");
    expect(en["auth.success"]).toBe("Success!");
    expect(en["auth.successText"]).toBe("Account created successfully. Please sign in.");
  });
});

describe("the translator", () => {
  it("fills in placeholders and leaves unknown ones visible", () => {
    const t = createTranslator(dictionaryFor("de"));
    expect(t("auth.signedInAs", { email: "jo@example.com" })).toContain("jo@example.com");
    expect(t("auth.signedInAs")).toContain("{email}");
  });

  it("picks the dictionary of the language", () => {
    expect(dictionaryFor("de")).toBe(de);
    expect(dictionaryFor("en")).toBe(en);
  });

  it("knows only en and de", () => {
    expect(isLanguage("en")).toBe(true);
    expect(isLanguage("de")).toBe(true);
    expect(isLanguage("fr")).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
  });
});
