import { ConflictChoice } from "#app/components/admin/notice-panel.tsx";
import { settingSpecs } from "#app/domains/settings/setting-registry.ts";
import type { SettingKey } from "#app/domains/settings/settings-defaults.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import type { Draft } from "./setting-fields.tsx";

/** A German twin (`<key>_de`) is labelled as its English field, marked DE. */
function labelKeyOf(key: SettingKey): { key: string; german: boolean } {
  const german = key.endsWith("_de") && key.slice(0, -3) in settingSpecs;
  return { key: german ? key.slice(0, -3) : key, german };
}

/**
 * Says which settings being edited here were saved elsewhere meanwhile (another admin, another tab), in which
 * sections, and lets the admin choose: keep mine (the next save replaces theirs), take theirs, or see both. Until
 * then a save of those fields is refused by the server, never applied over theirs.
 */
export function SettingsConflictBanner({
  clashes,
  mine,
  theirs,
  onKeepMine,
  onTakeTheirs,
}: {
  clashes: readonly SettingKey[];
  mine: Draft;
  theirs: Draft;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const t = useAdminTranslate();
  const labelOf = (setting: SettingKey) => {
    const { key, german } = labelKeyOf(setting);
    const label = t(`admin.settings.field.${key}` as AdminMessageKey);
    return german ? `${label} (DE)` : label;
  };
  const sections = [...new Set(clashes.map((key) => settingSpecs[labelKeyOf(key).key as SettingKey]?.group))]
    .filter(Boolean)
    .map((group) => t(`admin.settings.group.${group}` as AdminMessageKey));
  return (
    <ConflictChoice
      text={t("admin.settings.conflict.text", {
        fields: clashes.map(labelOf).join(", "),
        sections: sections.join(", "),
      })}
      fields={clashes.map((key) => ({ key, label: labelOf(key), mine: mine[key] ?? "", theirs: theirs[key] ?? "" }))}
      onKeepMine={onKeepMine}
      onTakeTheirs={onTakeTheirs}
    />
  );
}
