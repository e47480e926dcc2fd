import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { type SettingKey, settingKeys } from "#app/domains/settings/settings-defaults.ts";
import { settingGroups } from "#app/domains/settings/settings-form.ts";
import { isActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { useLiveRefresh } from "#app/web/live/use-live-refresh.ts";
import { GroupForm } from "./group-form.tsx";
import { keepMine, mergeLoaded, type SettingsForm, takeTheirs } from "./merge-loaded.ts";
import { SectionNav, sectionHref, sectionOf } from "./section-nav.tsx";
import type { Draft, SetValue } from "./setting-fields.tsx";
import { SettingsConflictBanner } from "./settings-conflict-banner.tsx";
import { UnsavedChangesPrompt } from "./unsaved-changes.tsx";

export type SettingsScreenData = { values: Draft; year: number; baseUrl: string; uploadMax: string };

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
  const [form, setForm] = useState<SettingsForm>({ draft: loaderData.values, baseline: loaderData.values });
  const [clashes, setClashes] = useState<SettingKey[]>([]);
  const stored = useRef(loaderData.values);
  const { draft } = form;
  const latest = useRef(form);
  latest.current = form;

  // A save made elsewhere (another admin, another tab) loads the stored values again, as does a save here.
  useLiveRefresh(["settings"]);
  // Fresh stored values: taken for every field not being edited and every field whose edit they now hold; a field
  // being edited that was saved elsewhere meanwhile is announced, and its edit kept (merge-loaded.ts).
  useEffect(() => {
    if (stored.current === loaderData.values) return;
    stored.current = loaderData.values;
    const merged = mergeLoaded(latest.current, loaderData.values);
    setForm({ draft: merged.draft, baseline: merged.baseline });
    if (merged.clashes.length > 0) setClashes((known) => [...new Set([...known, ...merged.clashes])]);
  }, [loaderData.values]);

  // Links written before the sections had addresses of their own (`#settings-legal`) open that section.
  useEffect(() => {
    const named = /^#settings-([a-z]+)$/.exec(location.hash)?.[1];
    if (!search.has("section") && named && settingGroups.some(({ id }) => id === named)) {
      navigate(sectionHref(named as (typeof settingGroups)[number]["id"]), { replace: true });
    }
  }, [location.hash, search, navigate]);

  const setValue: SetValue = (key, value) =>
    setForm((current) => ({ ...current, draft: { ...current.draft, [key]: value } }));
  const dirty = settingKeys.some((key) => draft[key] !== form.baseline[key]);

  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.settings")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.settings.intro")}</p>
      </header>
      <ActionMessage result={actionData} />
      {clashes.length > 0 ? (
        <SettingsConflictBanner
          clashes={clashes}
          mine={draft}
          theirs={loaderData.values}
          onKeepMine={() => {
            setForm((current) => keepMine(current, loaderData.values, clashes));
            setClashes([]);
          }}
          onTakeTheirs={() => {
            setForm((current) => takeTheirs(current, loaderData.values, clashes));
            setClashes([]);
          }}
        />
      ) : null}
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
            baseline={form.baseline}
            setValue={setValue}
            year={loaderData.year}
            baseUrl={loaderData.baseUrl}
            uploadMax={loaderData.uploadMax}
            pageErrors={pageErrors}
            pageSuggestions={isActionResult(actionData) && !actionData.ok ? actionData.suggestions : undefined}
          />
        ) : null}
      </div>
      <UnsavedChangesPrompt
        dirty={dirty}
        onDiscard={() => setForm({ draft: loaderData.values, baseline: loaderData.values })}
      />
    </div>
  );
}
