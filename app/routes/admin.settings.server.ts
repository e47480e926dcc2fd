import type { RouterContextProvider } from "react-router";
import { addressCompletion } from "#app/domains/content/content-schema.ts";
import { MENU_SECTION_IDS } from "#app/domains/content/menu-sections.ts";
import { formatMegabytes } from "#app/domains/media/upload.server.ts";
import { currentYear } from "#app/domains/settings/brand.ts";
import { settingsWithEffect } from "#app/domains/settings/setting-registry.ts";
import { saveSettings } from "#app/domains/settings/settings-admin.server.ts";
import { BASELINE_PREFIX } from "#app/domains/settings/settings-baseline.ts";
import { RETIRED_SETTING_KEYS, type SettingKey } from "#app/domains/settings/settings-defaults.ts";
import {
  SETTING_LIMITS,
  type SettingProblem,
  settingKinds,
  validateSettings,
} from "#app/domains/settings/settings-form.ts";
import { missingSiteImages, removeReplacedSiteImage } from "#app/domains/settings/site-images.server.ts";
import type { AdminMessageKey, AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult, Refused } from "#app/lib/action-result.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

export async function settingsLoader({ url, context }: Omit<Args, "request">) {
  requireAdmin(url, context);
  const { env } = runtimeOf(context);
  return {
    values: await requestSettings(context),
    // The server's year for the copyright placeholder, so that the page hydrates with the text it was sent.
    year: currentYear(),
    baseUrl: env.baseUrl,
    uploadMax: formatMegabytes(env.uploadMaxBytes),
  };
}

export type SettingsLoaderData = Awaited<ReturnType<typeof settingsLoader>>;

const PROBLEM_MESSAGES: Record<SettingProblem, AdminMessageKey> = {
  tooLong: "admin.settings.error.tooLong",
  badUrl: "admin.settings.error.badUrl",
  badUrlScheme: "admin.settings.error.badUrlScheme",
  badPath: "admin.settings.error.badPath",
  badBoolean: "admin.settings.error.badBoolean",
  badEmail: "admin.settings.error.badEmail",
  badTheme: "admin.settings.error.badTheme",
  badRetention: "admin.settings.error.badRetention",
  control: "admin.settings.error.control",
  lineBreak: "admin.settings.error.lineBreak",
  menuOrderUnknown: "admin.settings.error.menuOrderUnknown",
  menuOrderDuplicate: "admin.settings.error.menuOrderDuplicate",
  menuOrderMissing: "admin.settings.error.menuOrderMissing",
};

/** Equal as stored: browsers send line breaks as CRLF. */
const sameText = (a: string, b: string) => a.replace(/\r\n?/g, "\n") === b.replace(/\r\n?/g, "\n");

export type EditedSettings = {
  /** The fields to write: every edited setting, and every field that is no setting (refused by validation). */
  fields: Record<string, string>;
  /** The value each edited setting was loaded with (line endings as stored): a change made since is a conflict. */
  baseline: Partial<Record<SettingKey, string>>;
  /** How many fields were posted, edited or not (baselines not counted). */
  submitted: number;
};

/**
 * Sorts a posted settings form into what the admin edited. Each field comes with the value the form was loaded
 * with (`__was__<key>`): only what the admin edited is written, so a tab left open cannot put back a logo replaced
 * elsewhere meanwhile. A field posted without its baseline (a script, the API) counts as edited. A retired setting
 * (a page opened before an upgrade still posts it) is left out.
 */
export function readEditedSettings(form: Record<string, string>): EditedSettings {
  const fields: Record<string, string> = {};
  const baseline: Partial<Record<SettingKey, string>> = {};
  let submitted = 0;
  for (const [name, value] of Object.entries(form)) {
    if (name.startsWith(BASELINE_PREFIX) || (RETIRED_SETTING_KEYS as readonly string[]).includes(name)) continue;
    submitted += 1;
    const was = form[`${BASELINE_PREFIX}${name}`];
    if (was === undefined || !Object.hasOwn(settingKinds, name)) {
      fields[name] = value;
    } else if (!sameText(value, was)) {
      fields[name] = value;
      baseline[name as SettingKey] = was.replace(/\r\n?/g, "\n");
    }
  }
  return { fields, baseline, submitted };
}

/** The answer to a form whose values do not fit: one message per field, in the admin's language. */
export function refusedSettings(
  t: AdminTranslate,
  unknownKeys: string[],
  problems: Partial<Record<SettingKey, SettingProblem>>,
  /** The submitted values: an address that only lacks https:// is answered with the completed one. */
  fields: Record<string, string> = {},
): Refused {
  const fieldErrors: Record<string, string> = {};
  const suggestions: Record<string, string> = {};
  for (const [key, problem] of Object.entries(problems)) {
    const suggestion = problem === "badUrlScheme" ? addressCompletion(fields[key] ?? "") : null;
    if (suggestion) suggestions[key] = suggestion;
    fieldErrors[key] = t(PROBLEM_MESSAGES[problem], {
      max: SETTING_LIMITS[settingKinds[key as SettingKey] as keyof typeof SETTING_LIMITS] ?? "",
      sections: MENU_SECTION_IDS.join(", "),
      suggestion: suggestion ?? "",
    });
  }
  const message =
    unknownKeys.length > 0
      ? t("admin.settings.error.unknownKey", { keys: unknownKeys.join(", ").slice(0, 200) })
      : t("admin.settings.error.invalid", { count: Object.keys(fieldErrors).length });
  return { ok: false, message, fieldErrors, ...(Object.keys(suggestions).length > 0 ? { suggestions } : {}) };
}

export function settingsAction(args: Args) {
  return adminAction(args, async ({ admin, t, db, runtime }) => {
    const { storage } = runtime;
    const { intent, ...form } = await readForm(args.request);
    if (intent !== "save") throw new AdminRefusal(400, t("admin.settings.error.unknownIntent"));
    const { fields, baseline, submitted } = readEditedSettings(form);
    if (submitted === 0) throw new AdminRefusal(400, t("admin.settings.error.empty"));
    const checked = validateSettings(fields);
    if (!checked.ok) throw AdminRefusal.of(400, refusedSettings(t, checked.unknownKeys, checked.problems, fields));
    const missing = await missingSiteImages(checked.values, storage);
    if (missing.length > 0) {
      const fieldErrors = Object.fromEntries(missing.map((key) => [key, t("admin.settings.error.missingFile")]));
      throw new AdminRefusal(400, t("admin.settings.error.invalid", { count: missing.length }), { fieldErrors });
    }
    const { changed, conflicts, previous, settings } = await saveSettings(db, admin, checked.values, baseline);
    if (conflicts.length > 0) {
      const fieldErrors = Object.fromEntries(conflicts.map((key) => [key, t("admin.settings.error.changedField")]));
      throw new AdminRefusal(409, t("admin.settings.error.conflict"), { fieldErrors });
    }
    // An uploaded logo, favicon or share image replaced by hand (or cleared): its files go.
    for (const key of settingsWithEffect("site-image-cleanup")) {
      if (changed.includes(key)) await removeReplacedSiteImage(previous[key], settings[key], settings, storage);
    }
    const message =
      changed.length === 0 ? t("admin.settings.unchanged") : t("admin.settings.saved", { count: changed.length });
    return { ok: true, message } satisfies ActionResult;
  });
}
