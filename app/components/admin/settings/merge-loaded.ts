import { type SettingKey, settingKeys } from "#app/domains/settings/settings-defaults.ts";
import { validateSettings } from "#app/domains/settings/settings-form.ts";
import type { Draft } from "./setting-fields.tsx";

/** The value a field would be stored as (trimmed, say), or null when it would be refused. */
export function storedForm(key: SettingKey, value: string): string | null {
  const checked = validateSettings({ [key]: value });
  return checked.ok ? (checked.values[key] ?? null) : null;
}

/**
 * The settings form's state: what is typed (`draft`) and what each field's edit started from (`baseline`, posted
 * beside it so the server refuses a save over a value changed elsewhere meanwhile).
 */
export type SettingsForm = { draft: Draft; baseline: Draft };

/**
 * Takes freshly loaded stored values into the form (after a save here, or when the live stream says settings
 * changed elsewhere). A field not being edited takes the stored value; a field whose edit the stored value now
 * holds (this page's own save, trimmed say) takes it too. A field being edited whose stored value changed
 * elsewhere keeps both the edit and its old baseline, and is named in `clashes`: the admin chooses (keep mine,
 * take theirs), and until then a save of it is refused by the server rather than silently replacing theirs.
 */
export function mergeLoaded(form: SettingsForm, loaded: Draft): SettingsForm & { clashes: SettingKey[] } {
  const draft = { ...form.draft };
  const baseline = { ...form.baseline };
  const clashes: SettingKey[] = [];
  for (const key of settingKeys) {
    const now = loaded[key];
    if (now === undefined || now === form.baseline[key]) continue;
    const edited = form.draft[key] !== form.baseline[key];
    if (!edited || form.draft[key] === now || storedForm(key, form.draft[key] ?? "") === now) {
      draft[key] = now;
      baseline[key] = now;
    } else {
      clashes.push(key);
    }
  }
  return { draft, baseline, clashes };
}

/** "Keep mine": the edits stay, based on what is stored now, so the next save replaces theirs. */
export function keepMine(form: SettingsForm, loaded: Draft, keys: readonly SettingKey[]): SettingsForm {
  const baseline = { ...form.baseline };
  for (const key of keys) baseline[key] = loaded[key] ?? baseline[key] ?? "";
  return { draft: form.draft, baseline };
}

/** "Take theirs": the fields hold what is stored now, with nothing unsaved. */
export function takeTheirs(form: SettingsForm, loaded: Draft, keys: readonly SettingKey[]): SettingsForm {
  const draft = { ...form.draft };
  const baseline = { ...form.baseline };
  for (const key of keys) {
    draft[key] = loaded[key] ?? draft[key] ?? "";
    baseline[key] = loaded[key] ?? baseline[key] ?? "";
  }
  return { draft, baseline };
}
