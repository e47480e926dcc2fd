import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { signalJobsQueued } from "#app/domains/jobs/job-signal.server.ts";
import { recordWatermarkRedraw } from "#app/domains/media/image-watermarks.server.ts";
import { settingSpecs } from "./setting-registry.ts";
import { readSettings } from "./settings.server.ts";
import { type SettingKey, type SiteSettings, settingDefaults } from "./settings-defaults.ts";

export type SaveSettingsResult = {
  changed: SettingKey[];
  /**
   * Keys whose stored value no longer is the baseline the form was loaded with (changed elsewhere
   * meanwhile). When there are any, nothing was written.
   */
  conflicts: SettingKey[];
  /** The values the changed keys had before, as read in the saving transaction. */
  previous: Partial<Record<SettingKey, string>>;
  settings: SiteSettings;
};

/**
 * Writes the given (already validated) settings in one transaction; each changed key gets an audit
 * entry with its old and new value, and a change of the watermark queues its redraw (a job) in the same transaction. Unchanged keys are not recorded (a missing row is written with its default).
 *
 * `baseline` holds the values a form was loaded with: a key to be written must still have that value in
 * the database (a missing row counts as its default), else nothing is written and the key is reported as a
 * conflict, so a stale tab cannot undo what another one saved.
 */
export async function saveSettings(
  db: Kysely<Database>,
  actor: AuditActor,
  values: Partial<Record<SettingKey, string>>,
  baseline: Partial<Record<SettingKey, string>> = {},
): Promise<SaveSettingsResult> {
  const keys = Object.keys(values) as SettingKey[];
  const previous: Partial<Record<SettingKey, string>> = {};
  const conflicts: SettingKey[] = [];
  const changed = await db.transaction().execute(async (trx) => {
    const current = new Map<string, string>();
    if (keys.length > 0) {
      // Claim the rows before reading them: on PostgreSQL this takes their row locks, so two saves from tabs
      // loaded with the same values run one after the other and the second sees the first as a conflict. Keys
      // in one order, so two saves of overlapping keys cannot deadlock. A missing row gets the default it
      // stood for. On SQLite the transaction already holds the write lock.
      await trx
        .insertInto("site_settings")
        .values([...keys].sort().map((key) => ({ key, value: settingDefaults[key] })))
        .onConflict((oc) => oc.column("key").doUpdateSet((eb) => ({ value: eb.ref("site_settings.value") })))
        .execute();
      const rows = await trx.selectFrom("site_settings").select(["key", "value"]).where("key", "in", keys).execute();
      for (const row of rows) current.set(row.key, row.value);
    }
    for (const key of keys) {
      const expected = baseline[key];
      if (expected === undefined || values[key] === (current.get(key) ?? settingDefaults[key])) continue;
      if ((current.get(key) ?? settingDefaults[key]) !== expected) conflicts.push(key);
    }
    if (conflicts.length > 0) return [];
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
    // The redraw is queued with the change: should the process stop right after the save, another redraws.
    if (touchesWatermark(changedKeys)) await recordWatermarkRedraw(trx);
    return changedKeys;
  });
  if (touchesWatermark(changed)) signalJobsQueued();
  return { changed, conflicts, previous, settings: await readSettings(db) };
}

/**
 * Whether a save of these keys redraws the watermarks (the registry's `watermark-redraw`: the watermark settings,
 * and the site name a watermark follows); the refresh redraws only images whose text differs.
 */
export function touchesWatermark(keys: readonly SettingKey[]): boolean {
  return keys.some((key) => settingSpecs[key].effects.includes("watermark-redraw"));
}
