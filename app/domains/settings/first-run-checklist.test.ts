import { describe, expect, it } from "vitest";
import { type ChecklistInput, openChecklistItems } from "./first-run-checklist.ts";
import { FORMER_DEFAULTS, type SiteSettings, settingDefaults } from "./settings-defaults.ts";

const fresh: ChecklistInput = {
  settings: { ...settingDefaults },
  pictureCount: 0,
  mailConfigured: false,
  adminsWithoutTwoFactor: ["owner@example.com"],
  viewerEmail: "owner@example.com",
};

const ids = (input: ChecklistInput) => openChecklistItems(input).map((item) => item.id);
const withSettings = (overrides: Partial<SiteSettings>): ChecklistInput => ({
  ...fresh,
  settings: { ...settingDefaults, ...overrides },
});

/** Every step done: the owner's own texts, a picture, mail and two-factor sign-in. */
const finished: ChecklistInput = {
  settings: {
    ...settingDefaults,
    imprint_content: "Lena Kraus, Hauptstraße 1, Berlin",
    imprint_content_de: "Lena Kraus, Hauptstraße 1, Berlin",
    privacy_content: "Who processes what.",
    privacy_content_de: "Wer was verarbeitet.",
    home_content: "I photograph mountains.",
    meta_description: "Landscapes by Lena Kraus",
    watermark_text: "© Lena Kraus",
  },
  pictureCount: 1,
  mailConfigured: true,
  adminsWithoutTwoFactor: [],
  viewerEmail: "owner@example.com",
};

/** Every step done but for these settings. */
const finishedWith = (overrides: Partial<SiteSettings>): ChecklistInput => ({
  ...finished,
  settings: { ...finished.settings, ...overrides },
});

describe("the dashboard's first-run checklist", () => {
  it("lists every step on a fresh site, each linking to where it is done", () => {
    expect(openChecklistItems(fresh)).toEqual([
      { id: "legal-notice", to: "/admin/settings?section=legal" },
      { id: "privacy-policy", to: "/admin/settings?section=legal" },
      { id: "home-text", to: "/admin/settings?section=home" },
      { id: "share-description", to: "/admin/settings?section=sharing" },
      { id: "first-pictures", to: "/admin/gallery" },
      { id: "watermark-text", to: "/admin/settings?section=watermark" },
      { id: "mail", to: "/admin#mail" },
      { id: "two-factor", to: "/account/two-factor", emails: ["owner@example.com"] },
    ]);
  });

  it("lists nothing once every step is done", () => {
    expect(openChecklistItems(finished)).toEqual([]);
  });

  it("keeps a legal page open while either language still has the shipped template", () => {
    const englishOnly = { ...finished.settings, imprint_content_de: settingDefaults.imprint_content_de };
    expect(ids({ ...finished, settings: englishOnly })).toEqual(["legal-notice"]);
    const germanOnly = { ...finished.settings, privacy_content: settingDefaults.privacy_content };
    expect(ids({ ...finished, settings: germanOnly })).toEqual(["privacy-policy"]);
    // A template with extra blank lines around it is still the template.
    const padded = { ...finished.settings, imprint_content: `\n${settingDefaults.imprint_content}\n` };
    expect(ids({ ...finished, settings: padded })).toEqual(["legal-notice"]);
  });

  it("keeps the home text open until the owner has written their own, in either language", () => {
    const shipped = { home_content: settingDefaults.home_content, home_content_de: settingDefaults.home_content_de };
    expect(ids(finishedWith({ ...shipped }))).toEqual(["home-text"]);
    expect(ids(finishedWith({ ...shipped, home_content: "About me" }))).toEqual([]);
    expect(ids(finishedWith({ ...shipped, home_content_de: "Über mich" }))).toEqual([]);
    // Spaces around the shipped text do not make it the owner's.
    const padded = { home_content: ` ${settingDefaults.home_content}\n`, home_content_de: shipped.home_content_de };
    expect(ids(finishedWith({ ...padded }))).toEqual(["home-text"]);
  });

  it("counts the home text an earlier version shipped as not yet the owner's (a site from before the upgrade)", () => {
    const old = {
      home_content: FORMER_DEFAULTS.home_content?.[0],
      home_content_de: FORMER_DEFAULTS.home_content_de?.[0],
    };
    expect(old.home_content).toContain("Sign in as the admin to replace this text");
    expect(ids(finishedWith({ ...(old as Partial<SiteSettings>) }))).toEqual(["home-text"]);
    // Old English text beside the new German default: neither is the owner's.
    const mixed = { home_content: old.home_content ?? "", home_content_de: settingDefaults.home_content_de };
    expect(ids(finishedWith({ ...mixed }))).toEqual(["home-text"]);
  });

  it("counts a blank share description or watermark text as never set", () => {
    expect(ids(withSettings({ ...finished.settings, meta_description: "   " }))).toContain("share-description");
    expect(ids(withSettings({ ...finished.settings, watermark_text: " " }))).toContain("watermark-text");
  });

  it("asks for no watermark text when the watermark is switched off", () => {
    const off = { ...finished.settings, watermark_text: "", watermark_enabled: "false" };
    expect(ids({ ...finished, settings: off })).toEqual([]);
  });

  it("is done with pictures once there is one, published or not", () => {
    expect(ids({ ...finished, pictureCount: 0 })).toEqual(["first-pictures"]);
    expect(ids({ ...finished, pictureCount: 3 })).toEqual([]);
  });

  it("asks for mail only while SMTP_URL is unset", () => {
    expect(ids({ ...finished, mailConfigured: false })).toEqual(["mail"]);
  });

  it("sends an admin without two-factor sign-in to their own setup, and otherwise to the users", () => {
    const others = { ...finished, adminsWithoutTwoFactor: ["max@example.com"] };
    expect(openChecklistItems(others)).toEqual([{ id: "two-factor", to: "/admin/users", emails: ["max@example.com"] }]);
    const self = { ...finished, adminsWithoutTwoFactor: ["max@example.com", "owner@example.com"] };
    expect(openChecklistItems(self)).toEqual([
      { id: "two-factor", to: "/account/two-factor", emails: ["max@example.com", "owner@example.com"] },
    ]);
  });
});
