import { Eye, Upload } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { data, useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { requireAdmin } from "#app/auth/session.server.ts";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { CheckboxField, TextAreaField, TextField } from "#app/components/ui/field.tsx";
import { formatMegabytes } from "#app/domains/media/upload.server.ts";
import { siteDescription, siteTitle } from "#app/domains/settings/settings.ts";
import { saveSettings, startWatermarkRefresh, touchesWatermark } from "#app/domains/settings/settings-admin.server.ts";
import type { SettingKey, SiteSettings } from "#app/domains/settings/settings-defaults.ts";
import {
  SETTING_LIMITS,
  type SettingField,
  type SettingGroupId,
  type SettingProblem,
  settingGroups,
  settingKinds,
  validateSettings,
} from "#app/domains/settings/settings-form.ts";
import { missingSiteImages, removeReplacedSiteImage } from "#app/domains/settings/site-images.server.ts";
import { SITE_IMAGE_SETTING, type SiteImageKind } from "#app/domains/settings/site-images.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import { type ActionResult, isActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { adminPageMeta } from "#app/lib/admin-meta.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { absolute, DEFAULT_SHARE_IMAGE } from "#app/lib/meta.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { getDb, getRuntime } from "#app/lib/runtime.server.ts";
import { requestSettings } from "#app/lib/site-context.server.ts";
import type { Route } from "./+types/admin.settings";

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const { env } = getRuntime();
  return {
    values: await requestSettings(context),
    baseUrl: env.baseUrl,
    uploadMax: formatMegabytes(env.uploadMaxBytes),
  };
}

const PROBLEM_MESSAGES: Record<SettingProblem, AdminMessageKey> = {
  tooLong: "admin.settings.error.tooLong",
  badUrl: "admin.settings.error.badUrl",
  badPath: "admin.settings.error.badPath",
  badBoolean: "admin.settings.error.badBoolean",
  control: "admin.settings.error.control",
  lineBreak: "admin.settings.error.lineBreak",
};

/** Names the hidden field that carries the value a setting's field was loaded with. */
const BASELINE_PREFIX = "__was__";

/** Equal as stored: browsers send line breaks as CRLF. */
const sameText = (a: string, b: string) => a.replace(/\r\n?/g, "\n") === b.replace(/\r\n?/g, "\n");

const LIMIT_OF = { text: SETTING_LIMITS.text, longText: SETTING_LIMITS.longText, markdown: SETTING_LIMITS.markdown };

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const { intent, ...form } = await readForm(request);
  if (intent !== "save") {
    return data({ ok: false, message: t("admin.settings.error.unknownIntent") } satisfies ActionResult, {
      status: 400,
    });
  }
  // Each field comes with the value the form was loaded with (`__was__<key>`): only what the admin edited is
  // written, so a tab left open cannot put back a logo replaced elsewhere meanwhile.
  const fields: Record<string, string> = {};
  const baseline: Partial<Record<SettingKey, string>> = {};
  let submitted = 0;
  for (const [name, value] of Object.entries(form)) {
    if (name.startsWith(BASELINE_PREFIX)) continue;
    submitted += 1;
    const was = form[`${BASELINE_PREFIX}${name}`];
    if (was === undefined || !Object.hasOwn(settingKinds, name)) {
      fields[name] = value;
    } else if (sameText(value, was)) {
      // Not edited: not written.
    } else {
      fields[name] = value;
      baseline[name as SettingKey] = was.replace(/\r\n?/g, "\n");
    }
  }
  if (submitted === 0) {
    return data({ ok: false, message: t("admin.settings.error.empty") } satisfies ActionResult, { status: 400 });
  }
  const checked = validateSettings(fields);
  if (!checked.ok) {
    const fieldErrors: Record<string, string> = {};
    for (const [key, problem] of Object.entries(checked.problems)) {
      fieldErrors[key] = t(PROBLEM_MESSAGES[problem], {
        max: SETTING_LIMITS[settingKinds[key as SettingKey] as keyof typeof SETTING_LIMITS] ?? "",
      });
    }
    const message =
      checked.unknownKeys.length > 0
        ? t("admin.settings.error.unknownKey", { keys: checked.unknownKeys.join(", ").slice(0, 200) })
        : t("admin.settings.error.invalid", { count: Object.keys(fieldErrors).length });
    return data({ ok: false, message, fieldErrors } satisfies ActionResult, { status: 400 });
  }
  const missing = await missingSiteImages(checked.values);
  if (missing.length > 0) {
    const fieldErrors = Object.fromEntries(missing.map((key) => [key, t("admin.settings.error.missingFile")]));
    const message = t("admin.settings.error.invalid", { count: missing.length });
    return data({ ok: false, message, fieldErrors } satisfies ActionResult, { status: 400 });
  }
  const { changed, conflicts, previous, settings } = await saveSettings(getDb(), admin, checked.values, baseline);
  if (conflicts.length > 0) {
    const fieldErrors = Object.fromEntries(conflicts.map((key) => [key, t("admin.settings.error.changedField")]));
    return data({ ok: false, message: t("admin.settings.error.conflict"), fieldErrors } satisfies ActionResult, {
      status: 409,
    });
  }
  if (touchesWatermark(changed)) startWatermarkRefresh(getDb(), settings);
  // An uploaded logo, favicon or share image replaced by hand (or cleared): its files go.
  for (const key of Object.values(SITE_IMAGE_SETTING)) {
    if (changed.includes(key)) await removeReplacedSiteImage(previous[key], settings[key], settings);
  }
  const result: ActionResult = {
    ok: true,
    message:
      changed.length === 0 ? t("admin.settings.unchanged") : t("admin.settings.saved", { count: changed.length }),
  };
  return result;
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.settings");
}

type Draft = SiteSettings;
type SetValue = (key: SettingKey, value: string) => void;

function fieldLabel(t: ReturnType<typeof useAdminTranslate>, key: SettingKey): string {
  return t(`admin.settings.field.${key}` as AdminMessageKey);
}

/** Markdown source with a preview rendered on the server by the same safe rules as the public pages. */
function MarkdownField(props: {
  label: string;
  name: SettingKey;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const t = useAdminTranslate();
  const previewId = useId();
  const [preview, setPreview] = useState<{ html: string } | { failed: true } | null>(null);
  const [open, setOpen] = useState(false);

  const loadPreview = async (source: string) => {
    try {
      const body = new FormData();
      body.set("source", source);
      const response = await fetch("/admin/markdown-preview", { method: "POST", body });
      if (!response.ok) throw new Error(String(response.status));
      setPreview((await response.json()) as { html: string });
    } catch {
      setPreview({ failed: true });
    }
  };

  return (
    <div>
      <TextAreaField
        label={props.label}
        name={props.name}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        rows={8}
        maxLength={SETTING_LIMITS.markdown}
        hint={t("admin.settings.markdownHint")}
        error={props.error}
        className="font-mono text-sm"
      />
      <Button
        variant="secondary"
        size="sm"
        className="mt-2"
        aria-expanded={open}
        aria-controls={previewId}
        onClick={() => {
          const next = !open;
          setOpen(next);
          if (next) void loadPreview(props.value);
        }}
      >
        <Eye aria-hidden="true" className="size-4" />
        {open ? t("admin.settings.hidePreview") : t("admin.settings.showPreview")}
      </Button>
      {open ? (
        <Button variant="ghost" size="sm" className="ml-2 mt-2" onClick={() => void loadPreview(props.value)}>
          {t("admin.settings.refreshPreview")}
        </Button>
      ) : null}
      <section
        id={previewId}
        hidden={!open}
        aria-label={t("admin.settings.previewOf", { name: props.label })}
        aria-live="polite"
        className="mt-2 rounded-md border border-dashed border-zinc-300 p-4 text-sm dark:border-zinc-700"
      >
        {preview === null ? (
          <p>{t("admin.settings.previewLoading")}</p>
        ) : "failed" in preview ? (
          <p className="text-red-700 dark:text-red-300">{t("admin.settings.previewFailed")}</p>
        ) : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by renderMarkdown (no raw HTML, safe links)
          <div className="prose-content" dangerouslySetInnerHTML={{ __html: preview.html }} />
        )}
      </section>
    </div>
  );
}

function SettingInput(props: {
  settingKey: SettingKey;
  field: SettingField;
  label: string;
  value: string;
  error?: string;
  setValue: SetValue;
}) {
  const t = useAdminTranslate();
  const { settingKey: key, field, label, value, error } = props;
  const onChange = (next: string) => props.setValue(key, next);
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
          maxLength={LIMIT_OF.longText}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "url":
    case "path":
      return (
        <TextField
          label={label}
          name={key}
          value={value}
          inputMode="url"
          maxLength={SETTING_LIMITS.url}
          hint={field.kind === "path" ? t("admin.settings.pathHint") : t("admin.settings.urlHint")}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
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
    default:
      return (
        <TextField
          label={label}
          name={key}
          value={value}
          maxLength={LIMIT_OF.text}
          error={error}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}

/** The values a group's fields were loaded with, posted beside them (see the action). */
function Baselines({ field, loaded }: { field: SettingField; loaded: Draft }) {
  return (
    <>
      <input type="hidden" name={`${BASELINE_PREFIX}${field.key}`} value={loaded[field.key]} />
      {field.german ? (
        <input type="hidden" name={`${BASELINE_PREFIX}${field.german}`} value={loaded[field.german]} />
      ) : null}
    </>
  );
}

function FieldRow({
  field,
  draft,
  setValue,
  errors,
}: {
  field: SettingField;
  draft: Draft;
  setValue: SetValue;
  errors: Record<string, string>;
}) {
  const t = useAdminTranslate();
  const base = fieldLabel(t, field.key);
  if (!field.german) {
    return (
      <SettingInput
        settingKey={field.key}
        field={field}
        label={base}
        value={draft[field.key]}
        error={errors[field.key]}
        setValue={setValue}
      />
    );
  }
  return (
    <fieldset className="grid gap-4 md:grid-cols-2">
      <legend className="sr-only">{base}</legend>
      <SettingInput
        settingKey={field.key}
        field={field}
        label={t("admin.settings.inLanguage", { label: base, language: t("admin.common.english") })}
        value={draft[field.key]}
        error={errors[field.key]}
        setValue={setValue}
      />
      <div>
        <SettingInput
          settingKey={field.german}
          field={field}
          label={t("admin.settings.inLanguage", { label: base, language: t("admin.common.german") })}
          value={draft[field.german]}
          error={errors[field.german]}
          setValue={setValue}
        />
        {field.kind !== "markdown" ? (
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">{t("admin.common.germanFallback")}</p>
        ) : null}
      </div>
    </fieldset>
  );
}

/** How the home page looks when shared, by the same fallbacks as the page head (app/lib/meta.ts). */
function SharePreview({ draft, baseUrl }: { draft: Draft; baseUrl: string }) {
  const t = useAdminTranslate();
  const title = siteTitle(draft);
  const description = siteDescription(draft);
  const imageSetting = draft.meta_og_image.trim();
  const image = absolute(imageSetting || DEFAULT_SHARE_IMAGE, baseUrl);
  const url = draft.meta_og_url.trim() ? absolute(draft.meta_og_url.trim(), baseUrl) : `${baseUrl}/`;
  // The admin's browser fetches only this site's own images; another host's picture is named, not loaded.
  const sameSite = image.startsWith(`${baseUrl}/`);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Shown as typed.
  }
  return (
    <figure className="mt-6">
      <figcaption className="mb-2 text-sm font-medium">{t("admin.settings.sharePreview")}</figcaption>
      <div
        data-testid="share-preview"
        className="max-w-md overflow-hidden rounded-xl border border-zinc-300 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {sameSite ? (
          <img src={image} alt={t("admin.settings.shareImageAlt")} className="aspect-[1200/630] w-full object-cover" />
        ) : (
          <p className="flex aspect-[1200/630] items-center justify-center p-4 text-center text-sm text-zinc-600 dark:text-zinc-300">
            {t("admin.settings.shareImageExternal", { url: image })}
          </p>
        )}
        <div className="border-t border-zinc-300 p-3 dark:border-zinc-700">
          <p className="text-xs uppercase text-zinc-600 dark:text-zinc-300">{host}</p>
          <p className="font-semibold">{title}</p>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{description}</p>
        </div>
      </div>
    </figure>
  );
}

/**
 * Uploads a logo, favicon or share image; the server stores it and saves the setting at once. A form of its
 * own (a file cannot travel in the settings form); without JavaScript it posts to the upload route directly.
 */
function SiteImageUpload({
  kind,
  uploadMax,
  setValue,
}: {
  kind: SiteImageKind;
  uploadMax: string;
  setValue: SetValue;
}) {
  const t = useAdminTranslate();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  return (
    <form
      method="post"
      action={`/admin/uploads/site/${kind}`}
      encType="multipart/form-data"
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const body = new FormData(form);
        const file = body.get("file");
        if (!(file instanceof File) || file.size === 0) {
          setError(t("admin.settings.upload.noFile"));
          return;
        }
        setBusy(true);
        setError(undefined);
        try {
          const response = await fetch(form.action, { method: "POST", body, headers: { Accept: "application/json" } });
          const answer = (await response.json().catch(() => null)) as (ActionResult & { url?: string }) | null;
          if (!answer?.ok) {
            const message = answer?.message ?? t("admin.settings.upload.failed");
            setError(message);
            toast.error(t("admin.common.error"), { description: message });
            return;
          }
          if (answer.url) setValue(SITE_IMAGE_SETTING[kind], answer.url);
          form.reset();
          toast.success(answer.message);
          void revalidator.revalidate();
        } catch {
          setError(t("admin.settings.upload.failed"));
        } finally {
          setBusy(false);
        }
      }}
    >
      <div className="flex-1">
        <label htmlFor={id} className="block text-sm font-medium">
          {t(`admin.settings.upload.${kind}` as AdminMessageKey)}
        </label>
        <input
          id={id}
          type="file"
          name="file"
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          aria-invalid={error ? true : undefined}
          className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-zinc-900 dark:file:border-zinc-600 dark:file:bg-zinc-900 dark:file:text-zinc-100"
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
          {t(`admin.settings.upload.hint.${kind}` as AdminMessageKey, { max: uploadMax })}
        </p>
        {error ? (
          <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        ) : null}
      </div>
      <Button type="submit" variant="secondary" disabled={busy}>
        <Upload aria-hidden="true" className="size-4" />
        {busy ? t("admin.settings.upload.uploading") : t("admin.settings.upload.button")}
      </Button>
    </form>
  );
}

const GROUP_UPLOADS: Partial<Record<SettingGroupId, SiteImageKind[]>> = {
  identity: ["logo", "favicon"],
  sharing: ["share-image"],
};

function GroupForm({
  id,
  fields,
  draft,
  loaded,
  setValue,
  baseUrl,
  uploadMax,
  pageErrors,
}: {
  id: SettingGroupId;
  fields: SettingField[];
  draft: Draft;
  /** The stored values the page was loaded (or last revalidated) with. */
  loaded: Draft;
  setValue: SetValue;
  baseUrl: string;
  uploadMax: string;
  /** Field errors of a form post without JavaScript (the page's own action answer). */
  pageErrors: Record<string, string>;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  const result = useResultToast(fetcher.data, t("admin.common.error"));
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : result ? {} : pageErrors;
  const titleId = `settings-${id}-title`;
  return (
    <section
      id={`settings-${id}`}
      aria-labelledby={titleId}
      className="scroll-mt-6 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
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
            <Baselines field={field} loaded={loaded} />
            <FieldRow field={field} draft={draft} setValue={setValue} errors={errors} />
          </div>
        ))}
        {id === "sharing" ? <SharePreview draft={draft} baseUrl={baseUrl} /> : null}
        <div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle"
              ? t("admin.common.saving")
              : t("admin.settings.saveGroup", { group: t(`admin.settings.group.${id}` as AdminMessageKey) })}
          </Button>
        </div>
      </fetcher.Form>
      {GROUP_UPLOADS[id] ? (
        <div className="mt-6 flex flex-col gap-4 border-t border-zinc-200 pt-4 dark:border-zinc-800">
          <h3 className="text-base font-semibold">{t("admin.settings.upload.title")}</h3>
          {GROUP_UPLOADS[id]?.map((kind) => (
            <SiteImageUpload key={kind} kind={kind} uploadMax={uploadMax} setValue={setValue} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const [draft, setDraft] = useState<Draft>(loaderData.values);
  const stored = useRef(loaderData.values);

  // After a save the loader sends the stored values (trimmed, say): take them for every field not edited
  // since, and keep what is being edited in the other groups.
  useEffect(() => {
    const previous = stored.current;
    if (previous === loaderData.values) return;
    stored.current = loaderData.values;
    setDraft((current) => {
      const next = { ...current };
      for (const key of Object.keys(loaderData.values) as SettingKey[]) {
        if (current[key] === previous[key]) next[key] = loaderData.values[key];
      }
      return next;
    });
  }, [loaderData.values]);

  const setValue: SetValue = (key, value) => setDraft((current) => ({ ...current, [key]: value }));

  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.settings")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.settings.intro")}</p>
      </header>
      <ActionMessage result={actionData} />
      <nav aria-label={t("admin.settings.groupsNav")} className="mb-6">
        <ul className="flex flex-wrap gap-2">
          {settingGroups.map(({ id }) => (
            <li key={id}>
              <a
                href={`#settings-${id}`}
                className="inline-block rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:hover:bg-zinc-800"
              >
                {t(`admin.settings.group.${id}` as AdminMessageKey)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex flex-col gap-8">
        {settingGroups.map(({ id, fields }) => (
          <GroupForm
            key={id}
            id={id}
            fields={fields}
            draft={draft}
            loaded={loaderData.values}
            setValue={setValue}
            baseUrl={loaderData.baseUrl}
            uploadMax={loaderData.uploadMax}
            pageErrors={isActionResult(actionData) && !actionData.ok ? (actionData.fieldErrors ?? {}) : {}}
          />
        ))}
      </div>
    </div>
  );
}
