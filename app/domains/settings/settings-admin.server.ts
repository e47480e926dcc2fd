import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { refreshWatermarks } from "#app/domains/media/images.server.ts";
import { readSettings } from "./settings.server.ts";
import type { SettingKey, SiteSettings } from "./settings-defaults.ts";

export type SaveSettingsResult = {
  changed: SettingKey[];
  /** The values the changed keys had before, as read in the saving transaction. */
  previous: Partial<Record<SettingKey, string>>;
  settings: SiteSettings;
};

/**
 * Writes the given (already validated) settings in one transaction; each changed key gets an audit
 * entry with its old and new value. Unchanged keys are not written and not recorded.
 */
export async function saveSettings(
  db: Kysely<Database>,
  actor: AuditActor,
  values: Partial<Record<SettingKey, string>>,
): Promise<SaveSettingsResult> {
  const keys = Object.keys(values) as SettingKey[];
  const previous: Partial<Record<SettingKey, string>> = {};
  const changed = await db.transaction().execute(async (trx) => {
    const current = new Map<string, string>();
    if (keys.length > 0) {
      const rows = await trx.selectFrom("site_settings").select(["key", "value"]).where("key", "in", keys).execute();
      for (const row of rows) current.set(row.key, row.value);
    }
    const changedKeys: SettingKey[] = [];
    for (const key of keys) {
      const value = values[key] ?? "";
      const old = current.get(key);
      if (old === value) continue;
      await trx
        .insertInto("site_settings")
        .values({ key, value })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
        .execute();
      await recordAudit(trx, actor, { action: "settings.update", target: key, oldValue: old ?? null, newValue: value });
      changedKeys.push(key);
      if (old !== undefined) previous[key] = old;
    }
    return changedKeys;
  });
  return { changed, previous, settings: await readSettings(db) };
}

export function touchesWatermark(keys: readonly SettingKey[]): boolean {
  return keys.some((key) => key.startsWith("watermark_"));
}

/**
 * Redraws the gallery's watermarks after a watermark setting changed. Started, not awaited: the admin
 * gets the answer at once; a failure is logged, and the next change of the settings tries again.
 */
export function startWatermarkRefresh(db: Kysely<Database>, settings: SiteSettings): void {
  void refreshWatermarks(db, settings)
    .then(({ failed }) => {
      if (failed > 0) console.error(`Watermark refresh: ${failed} images could not be redrawn`);
    })
    .catch((error: unknown) => console.error("Watermark refresh failed", error));
}
