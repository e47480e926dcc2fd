import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { type SettingKey, settingKeys } from "#app/domains/settings/settings-defaults.ts";
import { settingGroups, validateSettings } from "#app/domains/settings/settings-form.ts";
import { isActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { GroupForm } from "./group-form.tsx";
import { SectionNav, sectionHref, sectionOf } from "./section-nav.tsx";
import type { Draft, SetValue } from "./setting-fields.tsx";
import { UnsavedChangesPrompt } from "./unsaved-changes.tsx";

export type SettingsScreenData = { values: Draft; year: number; baseUrl: string; uploadMax: string };

/** The value a field would be stored as (trimmed, say), or null when it would be refused. */
function storedForm(key: SettingKey, value: string): string | null {
  const checked = validateSettings({ [key]: value });
  return checked.ok ? (checked.values[key] ?? null) : null;
}

/** The site settings: one section (group) at a time, each saved on its own, over one draft of all values. */
export function SettingsScreen({ loaderData, actionData }: { loaderData: SettingsScreenData; actionData: unknown }) {
  const t = useAdminTranslate();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const pageErrors = isActionResult(actionData) && !actionData.ok ? (actionData.fieldErrors ?? {}) : {};
  // A form posted without JavaScript to the bare address is answered with the section of its first refused field.
  const refusedSection = settingGroups.find(({ fields }) =>
    fields.some(({ key, german }) => key in pageErrors || (german !== undefined && german in pageErrors)),
  )?.id;
  const active = search.has("section") ? sectionOf(search) : (refusedSection ?? sectionOf(search));
  const group = settingGroups.find(({ id }) => id === active) ?? settingGroups[0];
  const [draft, setDraft] = useState<Draft>(loaderData.values);
  const stored = useRef(loaderData.values);

  // After a save the loader sends the stored values: take them for every field not edited since, and for every
  // field whose edit they now hold (trimmed, say); keep what is being edited elsewhere.
  useEffect(() => {
    const previous = stored.current;
    if (previous === loaderData.values) return;
    stored.current = loaderData.values;
    setDraft((current) => {
      const next = { ...current };
      for (const key of Object.keys(loaderData.values) as SettingKey[]) {
        const loaded = loaderData.values[key];
        if (current[key] === previous[key] || storedForm(key, current[key]) === loaded) next[key] = loaded;
      }
      return next;
    });
  }, [loaderData.values]);

  // Links written before the sections had addresses of their own (`#settings-legal`) open that section.
  useEffect(() => {
    const named = /^#settings-([a-z]+)$/.exec(location.hash)?.[1];
    if (!search.has("section") && named && settingGroups.some(({ id }) => id === named)) {
      navigate(sectionHref(named as (typeof settingGroups)[number]["id"]), { replace: true });
    }
  }, [location.hash, search, navigate]);

  const setValue: SetValue = (key, value) => setDraft((current) => ({ ...current, [key]: value }));
  const dirty = settingKeys.some((key) => draft[key] !== loaderData.values[key]);

  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.settings")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.settings.intro")}</p>
      </header>
      <ActionMessage result={actionData} />
      {/* The sections above the form, not beside it: beside the admin menu a third column left the English and
          German fields 170 px each. */}
      <div className="flex flex-col gap-4">
        <SectionNav active={active} />
        {group ? (
          <GroupForm
            key={group.id}
            id={group.id}
            fields={group.fields}
            draft={draft}
            loaded={loaderData.values}
            setValue={setValue}
            year={loaderData.year}
            baseUrl={loaderData.baseUrl}
            uploadMax={loaderData.uploadMax}
            pageErrors={pageErrors}
            pageSuggestions={isActionResult(actionData) && !actionData.ok ? actionData.suggestions : undefined}
          />
        ) : null}
      </div>
      <UnsavedChangesPrompt dirty={dirty} onDiscard={() => setDraft(loaderData.values)} />
    </div>
  );
}
