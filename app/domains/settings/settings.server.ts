import type { Kysely } from "kysely";
import { isDatabaseUnreachable, noteChangeOf } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { currentYear, withBrandValues } from "./brand.ts";
import { isVisitorSetting } from "./setting-registry.ts";
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

/**
 * The settings as stored now, past every process's kept copy: for background work that must see a change committed
 * by another process before this one has heard of it (a watermark redraw queued by another instance's save).
 */
export async function readStoredSettings(db: Kysely<Database>): Promise<SiteSettings> {
  return readSettingRows(db);
}

async function readSettingRows(db: Kysely<Database>): Promise<SiteSettings> {
  const settings: SiteSettings = { ...settingDefaults };
  const rows = await db.selectFrom("site_settings").select(["key", "value"]).execute();
  for (const row of rows) {
    if (isSettingKey(row.key)) settings[row.key] = row.value;
  }
  return settings;
}

/**
 * All settings, defaults filling any gap. Read once per database change version rather than per request (a
 * save moves the version, so the page answering it still shows what was saved); inside a transaction always
 * read afresh. A database failure is logged and the defaults are used; nothing is kept, and it counts as a change
 * so that no page rendered from the defaults is kept either. A database that cannot be reached at all is not
 * papered over: the request is answered 503 (server/app.ts), rather than the defaults pretending to be the site.
 */
export async function readSettings(db: Kysely<Database>): Promise<SiteSettings> {
  try {
    // A copy, so that a caller changing its settings object cannot change everyone's.
    return { ...(await cachedUntilChanged(db, "settings", () => readSettingRows(db), ["settings"])) };
  } catch (error) {
    if (isDatabaseUnreachable(error)) throw error;
    getLogger().error({ err: error }, "Could not read site settings; using defaults.");
    noteChangeOf(db);
    return { ...settingDefaults };
  }
}

/**
 * Settings as `{ key, value }` rows sorted by key, the shape of the public API. The brand texts are given as the
 * pages show them (an empty one follows the site name), so that a reader of the API needs no rule of ours.
 */
export function settingRows(settings: SiteSettings): { key: string; value: string }[] {
  return (
    Object.entries(withBrandValues(settings, currentYear()))
      // What steers only the admin side or the server (the address contact messages go to, the admins' two-factor
      // rule) is nobody else's business: the registry says which keys those are.
      .filter(([key]) => isVisitorSetting(key))
      .map(([key, value]) => ({ key, value }))
      .sort((a, b) => a.key.localeCompare(b.key))
  );
}
