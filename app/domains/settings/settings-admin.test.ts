import { describe, expect, it } from "vitest";
import { AUDIT_VALUE_MAX, listAudit } from "#app/domains/audit/audit.server.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { readSettings } from "./settings.server.ts";
import { saveSettings } from "./settings-admin.server.ts";
import { settingDefaults } from "./settings-defaults.ts";

describe.each(databaseKinds)("saving settings (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  it("writes the changed keys and records each with its old and new value", async () => {
    const { changed, settings } = await saveSettings(database.db, testAdmin, {
      site_name: "Jo's Photographs",
      footer_copyright_de: "© 2026 Jo",
      site_logo_text: settingDefaults.site_logo_text,
    });

    expect(changed.sort()).toEqual(["footer_copyright_de", "site_name"]);
    expect(settings.site_name).toBe("Jo's Photographs");
    expect((await readSettings(database.db)).footer_copyright_de).toBe("© 2026 Jo");
    const { records } = await listAudit(database.db);
    expect(
      records
        .map(({ action, target, oldValue, newValue, actorEmail }) => ({
          action,
          target,
          oldValue,
          newValue,
          actorEmail,
        }))
        .sort((a, b) => a.target.localeCompare(b.target)),
    ).toEqual([
      {
        action: "settings.update",
        target: "footer_copyright_de",
        oldValue: settingDefaults.footer_copyright_de,
        newValue: "© 2026 Jo",
        actorEmail: testAdmin.email,
      },
      {
        action: "settings.update",
        target: "site_name",
        oldValue: settingDefaults.site_name,
        newValue: "Jo's Photographs",
        actorEmail: testAdmin.email,
      },
    ]);
  });

  it("records nothing when nothing changed", async () => {
    const { changed } = await saveSettings(database.db, testAdmin, { site_name: settingDefaults.site_name });
    expect(changed).toEqual([]);
    expect((await listAudit(database.db)).total).toBe(0);
  });

  it("cuts a long text in the audit log but stores it whole", async () => {
    const text = "Lorem ipsum ".repeat(300);
    await saveSettings(database.db, testAdmin, { privacy_content: text });

    expect((await readSettings(database.db)).privacy_content).toBe(text);
    const [record] = (await listAudit(database.db)).records;
    expect(record?.newValue?.length).toBe(AUDIT_VALUE_MAX + 1);
    expect(record?.newValue?.endsWith("…")).toBe(true);
  });

  it("of two saves from tabs loaded with the same values at the same moment, one wins and the other is a conflict", async () => {
    for (let round = 0; round < 10; round++) {
      const loaded = `Site ${round}`;
      await saveSettings(database.db, testAdmin, { site_name: loaded });
      const results = await Promise.all(
        ["First tab", "Second tab"].map((name) =>
          saveSettings(database.db, testAdmin, { site_name: `${name} ${round}` }, { site_name: loaded }),
        ),
      );
      const winners = results.filter((result) => result.changed.includes("site_name"));
      const refused = results.filter((result) => result.conflicts.includes("site_name"));
      expect(winners).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect((await readSettings(database.db)).site_name).toBe(winners[0]?.settings.site_name);
    }
  });

  it("two saves of the same keys in a different order at the same moment both go through", async () => {
    for (let round = 0; round < 10; round++) {
      const [first, second] = await Promise.all([
        saveSettings(database.db, testAdmin, {
          site_name: `A ${round}`,
          meta_title: `A ${round}`,
          footer_site_name: `A ${round}`,
        }),
        saveSettings(database.db, testAdmin, {
          footer_site_name: `B ${round}`,
          meta_title: `B ${round}`,
          site_name: `B ${round}`,
        }),
      ]);
      expect(first.conflicts).toEqual([]);
      expect(second.conflicts).toEqual([]);
      const stored = await readSettings(database.db);
      // One save ran after the other: all three keys come from the same one.
      expect(new Set([stored.site_name, stored.meta_title, stored.footer_site_name]).size).toBe(1);
    }
  });

  it("writes a key whose row is missing", async () => {
    await database.db.deleteFrom("site_settings").where("key", "=", "meta_title").execute();
    await saveSettings(database.db, testAdmin, { meta_title: "Shared title" });
    const row = await database.db
      .selectFrom("site_settings")
      .select("value")
      .where("key", "=", "meta_title")
      .executeTakeFirst();
    expect(row?.value).toBe("Shared title");
  });
});
