import { SuggestionButton } from "#app/components/admin/url-field.tsx";
import { CheckboxField, SelectField, TextAreaField, TextField } from "#app/components/ui/field.tsx";
import { followedValue } from "#app/domains/settings/brand.ts";
import { RETENTION_CHOICES, settingSpecs } from "#app/domains/settings/setting-registry.ts";
import { BASELINE_PREFIX } from "#app/domains/settings/settings-baseline.ts";
import type { SettingKey, SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import type { SettingField } from "#app/domains/settings/settings-form.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { THEME_SETTINGS } from "#app/lib/preferences.ts";
import { MarkdownField } from "./markdown-field.tsx";
import { MenuOrderField } from "./menu-order-field.tsx";

export type Draft = SiteSettings;
export type SetValue = (key: SettingKey, value: string) => void;

function SettingInput(props: {
  settingKey: SettingKey;
  field: SettingField;
  label: string;
  value: string;
  error?: string;
  setValue: SetValue;
  /** What the field stands for while empty (a brand text following the site name). */
  placeholder?: string;
  hint?: string;
  /** The completed address the server offered for a refused one. */
  suggestion?: string;
}) {
  const t = useAdminTranslate();
  const { settingKey: key, field, label, value, error } = props;
  const onChange = (next: string) => props.setValue(key, next);
  // The registry's limit of the key (a German twin has its English key's).
  const limit = settingSpecs[key].limit;
  switch (field.kind) {
    case "markdown":
      return <MarkdownField label={label} name={key} value={value} error={error} onChange={onChange} />;
    case "longText":
      return (
        <TextAreaField
          label={label}
          name={key}
          value={value}
          rows={3}
          maxLength={limit}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "url":
    case "path":
      return (
        <div>
          <TextField
            label={label}
            name={key}
            value={value}
            inputMode="url"
            maxLength={limit}
            hint={field.kind === "path" ? t("admin.settings.pathHint") : t("admin.settings.urlHint")}
            error={error}
            onChange={(event) => onChange(event.target.value)}
          />
          {props.suggestion ? (
            <SuggestionButton
              name={key}
              suggestion={props.suggestion}
              onUse={() => onChange(props.suggestion ?? value)}
            />
          ) : null}
        </div>
      );
    case "email":
      return (
        <TextField
          label={label}
          name={key}
          value={value}
          type="email"
          autoComplete="email"
          maxLength={limit}
          hint={t(`admin.settings.hint.${key}` as AdminMessageKey)}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "menuOrder":
      return <MenuOrderField label={label} name={key} value={value} error={error} onChange={onChange} />;
    case "boolean":
      return (
        <div>
          {/* Unticked, a checkbox sends nothing: the hidden "false" goes instead. Ticked, its "true" comes
              later in the form and wins (readForm keeps the last value of a repeated field). */}
          <input type="hidden" name={key} value="false" />
          <CheckboxField
            label={label}
            name={key}
            value="true"
            checked={value !== "false"}
            error={error}
            onChange={(event) => onChange(event.target.checked ? "true" : "false")}
          />
        </div>
      );
    case "theme":
      return (
        <SelectField
          label={label}
          name={key}
          value={value}
          options={THEME_SETTINGS.map((theme) => ({ value: theme, label: t(`admin.settings.theme.${theme}`) }))}
          hint={t("admin.settings.themeHint")}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "retention":
      return (
        <SelectField
          label={label}
          name={key}
          value={value}
          options={RETENTION_CHOICES.map((days) => ({ value: days, label: t(`admin.settings.retention.${days}`) }))}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    default:
      return (
        <TextField
          label={label}
          name={key}
          value={value}
          maxLength={limit}
          placeholder={props.placeholder}
          hint={props.hint}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}

/** The values a group's fields were loaded with, posted beside them (see the action). */
export function Baselines({ field, loaded }: { field: SettingField; loaded: Draft }) {
  return (
    <>
      <input type="hidden" name={`${BASELINE_PREFIX}${field.key}`} value={loaded[field.key]} />
      {field.german ? (
        <input type="hidden" name={`${BASELINE_PREFIX}${field.german}`} value={loaded[field.german]} />
      ) : null}
    </>
  );
}

/** A setting's field, or its English and German fields side by side. */
export function FieldRow({
  field,
  draft,
  year,
  setValue,
  errors,
  suggestions = {},
}: {
  field: SettingField;
  draft: Draft;
  /** The server's year, for the copyright line's placeholder. */
  year: number;
  setValue: SetValue;
  errors: Record<string, string>;
  suggestions?: Record<string, string>;
}) {
  const t = useAdminTranslate();
  const base = t(`admin.settings.field.${field.key}` as AdminMessageKey);
  // Brand texts left empty follow the site name as it is typed (brand.ts): the placeholder shows the result.
  const followed = followedValue(draft, field.key, year);
  const follows = followed === null ? {} : { placeholder: followed, hint: t("admin.settings.followsSiteName") };
  if (settingSpecs[field.key].siteImage) {
    // The image itself is shown as a thumbnail with the uploads; its address is for the rare hand-made case,
    // open when the server refused it.
    return (
      <details open={errors[field.key] ? true : undefined} className="group">
        <summary className="cursor-pointer rounded-md text-sm font-medium text-zinc-700 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-300">
          {t("admin.settings.addressInstead", { label: base })}
        </summary>
        <div className="mt-2">
          <SettingInput
            settingKey={field.key}
            field={field}
            label={base}
            value={draft[field.key]}
            error={errors[field.key]}
            setValue={setValue}
            suggestion={suggestions[field.key]}
          />
        </div>
      </details>
    );
  }
  if (!field.german) {
    return (
      <SettingInput
        settingKey={field.key}
        field={field}
        label={base}
        value={draft[field.key]}
        error={errors[field.key]}
        setValue={setValue}
        suggestion={suggestions[field.key]}
        {...follows}
      />
    );
  }
  return (
    // Side by side only where each has room (the form's own width, not the screen's, decides).
    <fieldset className="grid gap-4 @xl:grid-cols-2">
      <legend className="sr-only">{base}</legend>
      <SettingInput
        settingKey={field.key}
        field={field}
        label={t("admin.settings.inLanguage", { label: base, language: t("admin.common.english") })}
        value={draft[field.key]}
        error={errors[field.key]}
        setValue={setValue}
        {...follows}
      />
      <div>
        <SettingInput
          settingKey={field.german}
          field={field}
          label={t("admin.settings.inLanguage", { label: base, language: t("admin.common.german") })}
          value={draft[field.german]}
          error={errors[field.german]}
          setValue={setValue}
          placeholder={followedValue(draft, field.german, year) ?? undefined}
        />
        {field.kind !== "markdown" ? (
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">{t("admin.common.germanFallback")}</p>
        ) : null}
      </div>
    </fieldset>
  );
}
