import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adminDe, adminEn, adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { AUDIT_ACTIONS } from "./audit-actions.ts";
import { describeReorder, findMovedItem } from "./audit-moves.ts";
import { AUDIT_SHOWN_MAX, type AuditRecordView, describeAuditEntry, hasOwnSentence } from "./audit-sentence.ts";

const en = adminTranslatorFor("en");
const de = adminTranslatorFor("de");
const ID = "0b7e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b";
const ID2 = "1b7e4c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b";

function entry(action: string, values: Partial<AuditRecordView> = {}): AuditRecordView {
  return {
    actorId: "u1",
    actorEmail: "owner@example.com",
    action,
    target: "",
    oldValue: null,
    newValue: null,
    ...values,
  };
}

describe("audit sentences", () => {
  it("has its own sentence in English and German for every kind of action, never a key or an id", () => {
    for (const action of AUDIT_ACTIONS) {
      expect(hasOwnSentence(action), action).toBe(true);
      const record = entry(action, { target: ID, oldValue: ID, newValue: `${ID},${ID2}` });
      for (const t of [en, de]) {
        const { sentence, diff } = describeAuditEntry(record, t);
        expect(sentence, action).toMatch(/^owner@example\.com /);
        expect(sentence, action).not.toMatch(/admin\.audit|\{\w+\}/);
        expect(sentence, action).not.toContain(ID);
        expect(JSON.stringify(diff), action).not.toContain(ID);
      }
    }
    const own = Object.keys(adminEn).filter((key) => key.startsWith("admin.audit.says."));
    expect(own.filter((key) => !key.startsWith("admin.audit.says.generic")).sort()).toEqual(
      AUDIT_ACTIONS.map((action) => `admin.audit.says.${action}`).sort(),
    );
    expect(
      Object.keys(adminDe)
        .filter((key) => key.startsWith("admin.audit.says."))
        .sort(),
    ).toEqual(own.sort());
  });

  it("knows every kind of action the app writes (a new kind needs its sentence)", () => {
    // The action names in the files that write audit entries: "<area>.<verb>" literals, and the content areas.
    const written = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          const source = readFileSync(path, "utf8");
          if (!/recordAudit\(|_AUDIT = \{/.test(source)) continue;
          for (const match of source.matchAll(
            /"((?:settings|invites|users|groups|gallery|links|faq|videos|posts|backup|mail|account|jobs)\.[A-Za-z-]+)"/g,
          )) {
            written.add(match[1] as string);
          }
          for (const match of source.matchAll(/`\$\{config\.area\}\.([a-z]+)`/g)) {
            for (const area of ["links", "faq", "videos"]) written.add(`${area}.${match[1]}`);
          }
        }
      }
    };
    walk(join(import.meta.dirname, "../.."));
    expect(written.size).toBeGreaterThan(30);
    expect([...written].filter((action) => !hasOwnSentence(action))).toEqual([]);
  });

  it("says who made whom an admin, in the admin's language", () => {
    const grant = entry("users.grantAdmin", { target: "max@example.com", oldValue: "user", newValue: "admin" });
    expect(describeAuditEntry(grant, en).sentence).toBe("owner@example.com made max@example.com an admin");
    expect(describeAuditEntry(grant, de).sentence).toBe("owner@example.com hat max@example.com zum Admin gemacht");
    const cli = { ...grant, actorId: "cli", actorEmail: "command line" };
    expect(describeAuditEntry(cli, en).sentence).toBe("The command line made max@example.com an admin");
  });

  it("names a moved picture by its title and says which way it went", () => {
    const up = entry("gallery.reorder", { target: "Alpine lake", oldValue: "3/5", newValue: "2/5" });
    expect(describeAuditEntry(up, en)).toEqual({
      sentence: "owner@example.com moved the picture “Alpine lake” up",
      diff: [{ label: "Position", before: { text: "3", full: null }, after: { text: "2", full: null } }],
    });
    expect(describeAuditEntry(up, de).sentence).toBe(
      "owner@example.com hat das Bild „Alpine lake“ nach oben verschoben",
    );
    const top = { ...up, newValue: "1/5" };
    expect(describeAuditEntry(top, en).sentence).toBe("owner@example.com moved the picture “Alpine lake” to the top");
    const bottom = entry("links.reorder", { target: "Mastodon", oldValue: "1/4", newValue: "4/4" });
    expect(describeAuditEntry(bottom, de).sentence).toBe(
      "owner@example.com hat den Link „Mastodon“ ans Ende verschoben",
    );
    const down = entry("faq.reorder", { target: "Prices?", oldValue: "1/4", newValue: "2/4" });
    expect(describeAuditEntry(down, en).sentence).toBe("owner@example.com moved the question “Prices?” down");
  });

  it("reads older entries that stored only ids without showing an id", () => {
    const oldOrder = entry("gallery.reorder", { target: "gallery", newValue: `${ID},${ID2}` });
    expect(describeAuditEntry(oldOrder, en)).toEqual({
      sentence: "owner@example.com changed the order of the gallery",
      diff: [],
    });
    const oldUpload = entry("gallery.create", { target: ID, newValue: "lake.jpg" });
    expect(describeAuditEntry(oldUpload, en).sentence).toBe("owner@example.com uploaded the picture “lake.jpg”");
    const untitled = entry("gallery.delete", { target: ID, oldValue: ID2 });
    expect(describeAuditEntry(untitled, en)).toEqual({
      sentence: "owner@example.com deleted a picture without a title",
      diff: [],
    });
    expect(describeAuditEntry(untitled, de).sentence).toBe("owner@example.com hat ein Bild ohne Titel gelöscht");
    const poster = entry("videos.poster", { target: "Trailer", oldValue: ID, newValue: ID2 });
    expect(describeAuditEntry(poster, en)).toEqual({
      sentence: "owner@example.com gave the video “Trailer” a new poster",
      diff: [],
    });
    const removed = entry("videos.poster", { target: "Trailer", oldValue: ID, newValue: "" });
    expect(describeAuditEntry(removed, en).sentence).toBe(
      "owner@example.com removed the poster of the video “Trailer”",
    );
    expect(describeAuditEntry(removed, de).sentence).toBe(
      "owner@example.com hat das Vorschaubild entfernt: das Video „Trailer“",
    );
  });

  it("reads a kind of action it does not know as a generic sentence", () => {
    const unknown = entry("gallery.bulk-publish", { target: "3 pictures", newValue: "true" });
    expect(describeAuditEntry(unknown, en)).toEqual({
      sentence: "owner@example.com: gallery.bulk-publish (Gallery), “3 pictures”",
      diff: [{ label: "Value", before: null, after: { text: "true", full: null } }],
    });
    expect(describeAuditEntry({ ...unknown, target: ID }, de).sentence).toBe(
      "owner@example.com: gallery.bulk-publish (Galerie)",
    );
  });
});

describe("audit diffs", () => {
  it("shows a changed setting under its translated label", () => {
    const record = entry("settings.update", { target: "site_name", oldValue: "Vitrine", newValue: "Lena Kraft" });
    expect(describeAuditEntry(record, en)).toEqual({
      sentence: "owner@example.com changed the setting “Site name”",
      diff: [
        { label: "Site name", before: { text: "Vitrine", full: null }, after: { text: "Lena Kraft", full: null } },
      ],
    });
    const german = describeAuditEntry({ ...record, target: "home_title_de" }, de);
    expect(german.sentence).toMatch(/^owner@example\.com hat die Einstellung „.+ \(Deutsch\)“ geändert$/);
    expect(german.diff[0]?.label).toMatch(/\(Deutsch\)$/);
  });

  it("never shows a secret's value", () => {
    const record = entry("settings.update", {
      target: "smtp_password",
      oldValue: "old-secret",
      newValue: "new-secret",
    });
    const { diff } = describeAuditEntry(record, de);
    expect(JSON.stringify(diff)).not.toMatch(/secret/);
    expect(diff).toEqual([
      {
        label: "smtp_password",
        before: { text: "(verborgen)", full: null },
        after: { text: "(verborgen)", full: null },
      },
    ]);
  });

  it("shows only the fields that changed, with translated labels, and shortens long texts", () => {
    const long = "A long answer. ".repeat(30);
    const record = entry("faq.update", {
      target: "Prices?",
      oldValue: JSON.stringify({ question: "Prices?", question_de: "Preise?", answer: "Ask me.", answer_de: "" }),
      newValue: JSON.stringify({ question: "Prices?", question_de: "Preise?", answer: long, answer_de: "Fragen Sie." }),
    });
    const { sentence, diff } = describeAuditEntry(record, de);
    expect(sentence).toBe("owner@example.com hat die Frage „Prices?“ bearbeitet");
    expect(diff.map((row) => row.label)).toEqual(["Antwort", "Antwort (Deutsch)"]);
    expect(diff[0]?.before).toEqual({ text: "Ask me.", full: null });
    expect(diff[0]?.after?.full).toBe(long);
    expect(diff[0]?.after?.text.length).toBeLessThanOrEqual(AUDIT_SHOWN_MAX + 1);
    expect(diff[0]?.after?.text.endsWith("…")).toBe(true);
    expect(diff[1]).toEqual({ label: "Antwort (Deutsch)", before: null, after: { text: "Fragen Sie.", full: null } });
  });

  it("leaves out ids and file names of stored items", () => {
    const record = entry("videos.create", {
      target: "Trailer",
      newValue: JSON.stringify({ title: "Trailer", file_key: "public/videos/x.mp4", poster_image_id: ID }),
    });
    expect(describeAuditEntry(record, en)).toEqual({
      sentence: "owner@example.com added the video “Trailer”",
      diff: [{ label: "Title", before: null, after: { text: "Trailer", full: null } }],
    });
  });

  it("reads the sessions, languages and sizes the writers store as words", () => {
    const signOut = entry("users.signOut", { target: "max@example.com", newValue: "3 sessions ended" });
    expect(describeAuditEntry(signOut, de)).toEqual({
      sentence: "owner@example.com hat max@example.com auf allen Geräten abgemeldet",
      diff: [{ label: "Beendete Sitzungen", before: null, after: { text: "3", full: null } }],
    });
    const language = entry("account.changeLanguage", { oldValue: "en", newValue: "de" });
    expect(describeAuditEntry(language, de).diff).toEqual([
      { label: "Sprache der Mails", before: { text: "Englisch", full: null }, after: { text: "Deutsch", full: null } },
    ]);
    const backup = entry("backup.download", { target: "vitrine-backup.tar.gz", newValue: "2500000 bytes, 4 files" });
    expect(describeAuditEntry(backup, en).diff).toEqual([
      { label: "Contents", before: null, after: { text: "2.5 MB, 4 files", full: null } },
    ]);
  });

  it("names a failed background job by its kind in words, or by its name where it has none", () => {
    const retry = entry("jobs.retry", { target: "backup.scheduled", oldValue: "No space left on device" });
    expect(describeAuditEntry(retry, en)).toEqual({
      sentence: "owner@example.com had the failed background work “Scheduled backup” tried again",
      diff: [{ label: "Error", before: { text: "No space left on device", full: null }, after: null }],
    });
    const dismiss = entry("jobs.dismiss", { target: "report.weekly", oldValue: "timeout" });
    expect(describeAuditEntry(dismiss, de).sentence).toBe(
      "owner@example.com hat die fehlgeschlagene Hintergrundarbeit „report.weekly“ verworfen",
    );
  });
});

describe("recording a reorder", () => {
  it("finds the one item that moved and records its title and places", () => {
    const titles: Record<string, string> = { a: "Alpine lake", b: "Beach", c: "City", d: "Dunes" };
    expect(describeReorder(["a", "b", "c", "d"], ["c", "a", "b", "d"], (id) => titles[id] ?? "")).toEqual({
      target: "City",
      oldValue: "3/4",
      newValue: "1/4",
    });
    expect(findMovedItem(["a", "b", "c"], ["a", "c", "b"])).toBe("c");
    expect(findMovedItem(["a", "b", "c"], ["a", "c", "b"], "b")).toBe("b");
    expect(findMovedItem(["a", "b"], ["a", "b"])).toBeNull();
    expect(describeReorder(["a", "b", "c", "d"], ["b", "a", "d", "c"], (id) => titles[id] ?? "")).toEqual({
      target: "",
      oldValue: null,
      newValue: "Beach\nAlpine lake\nDunes\nCity",
    });
  });
});
