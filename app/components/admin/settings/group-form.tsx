import { useFetcher } from "react-router";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { type SettingGroupId, SITE_IMAGE_SETTING, settingSpecs } from "#app/domains/settings/setting-registry.ts";
import type { SettingField } from "#app/domains/settings/settings-form.ts";
import type { SiteImageKind } from "#app/domains/settings/site-images.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { Baselines, type Draft, FieldRow, type SetValue } from "./setting-fields.tsx";
import { SharePreview } from "./share-preview.tsx";
import { SiteImageUpload } from "./site-image-upload.tsx";

/** The site images uploaded in a group: those its settings name (the registry's `siteImage`). */
function uploadsOf(id: SettingGroupId): SiteImageKind[] {
  return Object.values(settingSpecs).flatMap((spec) => (spec.group === id && spec.siteImage ? [spec.siteImage] : []));
}

/** One group of settings: its fields, saved together, and the uploads that belong to it. */
export function GroupForm({
  id,
  fields,
  draft,
  loaded,
  baseline,
  setValue,
  year,
  baseUrl,
  uploadMax,
  pageErrors,
  pageSuggestions = {},
}: {
  id: SettingGroupId;
  fields: SettingField[];
  draft: Draft;
  /** The stored values the page was loaded (or last revalidated) with. */
  loaded: Draft;
  /** What each field's edit started from, posted beside it (a save over a value changed meanwhile is refused). */
  baseline: Draft;
  setValue: SetValue;
  year: number;
  baseUrl: string;
  uploadMax: string;
  /** Field errors of a form post without JavaScript (the page's own action answer). */
  pageErrors: Record<string, string>;
  /** The completions that answer offered for refused addresses. */
  pageSuggestions?: Record<string, string>;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  const result = useResultToast(fetcher.data, t("admin.common.error"));
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : result ? {} : pageErrors;
  const suggestions = result && !result.ok ? (result.suggestions ?? {}) : result ? {} : pageSuggestions;
  const titleId = `settings-${id}-title`;
  const uploads = uploadsOf(id);
  return (
    <section
      id={`settings-${id}`}
      aria-labelledby={titleId}
      className="@container scroll-mt-6 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
    >
      <h2 id={titleId} className="text-xl font-semibold">
        {t(`admin.settings.group.${id}` as AdminMessageKey)}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
        {t(`admin.settings.group.${id}Text` as AdminMessageKey)}
      </p>
      <fetcher.Form method="post" className="mt-4 flex flex-col gap-5">
        <input type="hidden" name="intent" value="save" />
        {fields.map((field) => (
          <div key={field.key}>
            <Baselines field={field} loaded={baseline} />
            <FieldRow
              field={field}
              draft={draft}
              year={year}
              setValue={setValue}
              errors={errors}
              suggestions={suggestions}
            />
          </div>
        ))}
        {id === "sharing" ? (
          <>
            {/* og:url and the canonical link: where BASE_URL says the site is, not a setting (meta_og_url retired). */}
            <TextField
              label={t("admin.settings.baseAddress")}
              value={`${baseUrl}/`}
              readOnly
              hint={t("admin.settings.baseAddressHint")}
            />
            <SharePreview draft={draft} baseUrl={baseUrl} />
          </>
        ) : null}
        <div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle"
              ? t("admin.common.saving")
              : t("admin.settings.saveGroup", { group: t(`admin.settings.group.${id}` as AdminMessageKey) })}
          </Button>
        </div>
      </fetcher.Form>
      {uploads.length > 0 ? (
        <div className="mt-6 flex flex-col gap-4 border-t border-zinc-200 pt-4 dark:border-zinc-800">
          <h3 className="text-base font-semibold">{t("admin.settings.upload.title")}</h3>
          {uploads.map((kind) => (
            <SiteImageUpload
              key={kind}
              kind={kind}
              loaded={loaded[SITE_IMAGE_SETTING[kind]]}
              uploadMax={uploadMax}
              setValue={setValue}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}
