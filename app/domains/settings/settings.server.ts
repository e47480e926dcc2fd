import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { isSettingKey, type SiteSettings, settingDefaults, settingKeys } from "./settings-defaults.ts";

/** Inserts only the keys that are missing, so an upgrade never overwrites what an admin changed. */
export async function insertMissingDefaults(db: Kysely<Database>): Promise<number> {
  const rows = settingKeys.map((key) => ({ key, value: settingDefaults[key] }));
  const result = await db
    .insertInto("site_settings")
    .values(rows)
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** All settings, defaults filling any gap. A database failure is logged and the defaults are used. */
export async function readSettings(db: Kysely<Database>): Promise<SiteSettings> {
  const settings: SiteSettings = { ...settingDefaults };
  try {
    const rows = await db.selectFrom("site_settings").select(["key", "value"]).execute();
    for (const row of rows) {
      if (isSettingKey(row.key)) settings[row.key] = row.value;
    }
  } catch (error) {
    console.error("Could not read site settings; using defaults.", error);
  }
  return settings;
}

/** Settings as `{ key, value }` rows sorted by key, the shape of the public API. */
export function settingRows(settings: SiteSettings): { key: string; value: string }[] {
  return Object.entries(settings)
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => a.key.localeCompare(b.key));
}
