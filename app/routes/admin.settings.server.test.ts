import { describe, expect, it } from "vitest";
import { validateSettings } from "#app/domains/settings/settings-form.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { readEditedSettings, refusedSettings } from "./admin.settings.server.ts";

describe("reading what the admin edited in a settings form", () => {
  it("writes only the fields whose value differs from the one they were loaded with", () => {
    const edited = readEditedSettings({
      site_name: "Jo's Photographs",
      __was__site_name: "Vitrine",
      site_logo_url: "/media/site/logo-0123456789abcdef.webp",
      __was__site_logo_url: "/media/site/logo-0123456789abcdef.webp",
    });
    expect(edited).toEqual({
      fields: { site_name: "Jo's Photographs" },
      baseline: { site_name: "Vitrine" },
      submitted: 2,
    });
  });

  it("counts a Markdown text sent with CRLF line breaks as unchanged when only the line endings differ", () => {
    const edited = readEditedSettings({
      imprint_content: "# Title\r\n\r\nText",
      __was__imprint_content: "# Title\n\nText",
    });
    expect(edited).toEqual({ fields: {}, baseline: {}, submitted: 1 });
  });

  it("keeps the baseline with line endings as stored, so that a conflict check compares like with like", () => {
    const edited = readEditedSettings({ privacy_content: "New", __was__privacy_content: "Old\r\ntext" });
    expect(edited.baseline).toEqual({ privacy_content: "Old\ntext" });
  });

  it("takes a field sent without its baseline (a script, a form of an older page) as edited", () => {
    expect(readEditedSettings({ meta_title: "Shared" })).toEqual({
      fields: { meta_title: "Shared" },
      baseline: {},
      submitted: 1,
    });
  });

  it("passes an unknown field on even with a baseline, so that validation refuses it by name", () => {
    const edited = readEditedSettings({ is_admin: "true", __was__is_admin: "true" });
    expect(edited.fields).toEqual({ is_admin: "true" });
    expect(validateSettings(edited.fields)).toMatchObject({ ok: false, unknownKeys: ["is_admin"] });
  });

  it("leaves out the retired meta_og_url that a page opened before the upgrade still posts", () => {
    expect(
      readEditedSettings({
        meta_title: "Shared",
        __was__meta_title: "",
        meta_og_url: "https://old.example/",
        __was__meta_og_url: "",
      }),
    ).toEqual({ fields: { meta_title: "Shared" }, baseline: { meta_title: "" }, submitted: 1 });
  });

  it("counts no baseline as a field: a form of baselines only has nothing to save", () => {
    expect(readEditedSettings({ __was__site_name: "Vitrine" })).toEqual({ fields: {}, baseline: {}, submitted: 0 });
  });
});

describe("refusing settings that do not fit", () => {
  it("names each field's problem in the admin's language, with the limit of its kind", () => {
    const checked = validateSettings({ site_name: "x".repeat(201), watermark_url: "javascript:alert(1)" });
    if (checked.ok) throw new Error("expected a refusal");
    expect(refusedSettings(adminTranslatorFor("en"), checked.unknownKeys, checked.problems)).toEqual({
      ok: false,
      message: "Nothing was saved: fields to correct: 2.",
      fieldErrors: {
        site_name: "Too long: at most 200 characters.",
        watermark_url: expect.stringContaining("Not an address that can be used"),
      },
    });
    const german = refusedSettings(adminTranslatorFor("de"), checked.unknownKeys, checked.problems);
    expect(german.message).not.toBe("Nothing was saved: fields to correct: 2.");
    expect(german.ok ? {} : german.fieldErrors?.site_name).toContain("200");
  });

  it("offers an address that only lacks https:// completed, with the completion beside the message", () => {
    const fields = { watermark_url: "example.com/about", meta_og_image: "ftp://example.com/x.png" };
    const checked = validateSettings(fields);
    if (checked.ok) throw new Error("expected a refusal");
    expect(checked.problems).toEqual({ watermark_url: "badUrlScheme", meta_og_image: "badUrl" });
    expect(refusedSettings(adminTranslatorFor("en"), checked.unknownKeys, checked.problems, fields)).toEqual({
      ok: false,
      message: "Nothing was saved: fields to correct: 2.",
      fieldErrors: {
        watermark_url: "This address lacks its beginning. Did you mean https://example.com/about?",
        meta_og_image: expect.stringContaining("Not an address that can be used"),
      },
      suggestions: { watermark_url: "https://example.com/about" },
    });
    expect(validateSettings({ watermark_url: "https://example.com/about" }).ok).toBe(true);
  });

  it("names unknown settings in its message", () => {
    expect(refusedSettings(adminTranslatorFor("en"), ["is_admin", "role"], {}).message).toBe(
      "Nothing was saved: unknown setting is_admin, role.",
    );
  });
});
