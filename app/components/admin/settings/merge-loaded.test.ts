import { describe, expect, it } from "vitest";
import { settingDefaults } from "#app/domains/settings/settings-defaults.ts";
import { keepMine, mergeLoaded, takeTheirs } from "./merge-loaded.ts";
import type { Draft } from "./setting-fields.tsx";

const stored: Draft = { ...settingDefaults, site_name: "Vitrine", footer_site_name: "Old footer" };

describe("the settings form taking freshly loaded values", () => {
  it("takes a value changed elsewhere into a field not being edited, and its baseline with it", () => {
    const form = { draft: stored, baseline: stored };
    const merged = mergeLoaded(form, { ...stored, site_name: "Their name" });
    expect(merged.clashes).toEqual([]);
    expect(merged.draft.site_name).toBe("Their name");
    expect(merged.baseline.site_name).toBe("Their name");
  });

  it("keeps an edit whose field was changed elsewhere, with its old baseline, and names the clash", () => {
    const form = { draft: { ...stored, site_name: "My name" }, baseline: stored };
    const merged = mergeLoaded(form, { ...stored, site_name: "Their name", footer_site_name: "New footer" });
    expect(merged.clashes).toEqual(["site_name"]);
    expect(merged.draft.site_name).toBe("My name");
    // The old baseline stays: a save now is refused by the server, not applied over theirs.
    expect(merged.baseline.site_name).toBe("Vitrine");
    // The other field, not being edited, follows.
    expect(merged.draft.footer_site_name).toBe("New footer");

    const kept = keepMine(merged, { ...stored, site_name: "Their name" }, merged.clashes);
    expect(kept.draft.site_name).toBe("My name");
    expect(kept.baseline.site_name).toBe("Their name");
    const taken = takeTheirs(merged, { ...stored, site_name: "Their name" }, merged.clashes);
    expect(taken.draft.site_name).toBe("Their name");
    expect(taken.baseline.site_name).toBe("Their name");
  });

  it("takes this page's own save (the edit as stored, trimmed) without a clash", () => {
    const form = { draft: { ...stored, site_name: "  My name  " }, baseline: stored };
    const merged = mergeLoaded(form, { ...stored, site_name: "My name" });
    expect(merged.clashes).toEqual([]);
    expect(merged.draft.site_name).toBe("My name");
    expect(merged.baseline.site_name).toBe("My name");
  });

  it("changes nothing when the loaded values are what the form is based on", () => {
    const form = { draft: { ...stored, site_name: "My name" }, baseline: stored };
    expect(mergeLoaded(form, stored)).toEqual({ ...form, clashes: [] });
  });
});
