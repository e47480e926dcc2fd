import type { AdminMessageKey, AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import { jobKindName } from "#app/i18n/job-kind-name.ts";
import { type AuditAction, isAuditAction } from "./audit-actions.ts";
import { parsePlace } from "./audit-moves.ts";

/** An audit record as the log screen reads it (audit.server.ts `AuditRecord`). */
export type AuditRecordView = {
  actorId?: string;
  actorEmail: string;
  action: string;
  target: string;
  oldValue: string | null;
  newValue: string | null;
};

/** A value as shown: shortened to `text` when long, with the `full` text beside it. */
export type AuditText = { text: string; full: string | null };
/** One changed field: its translated label, the old value (struck out) and the new one (added). */
export type AuditDiffRow = { label: string; before: AuditText | null; after: AuditText | null };
export type AuditDescription = { sentence: string; diff: AuditDiffRow[] };

/** Values longer than this are shortened in the table; the full text is one click away. */
export const AUDIT_SHOWN_MAX = 160;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const ID_OR_IDS = new RegExp(`^${UUID}(,${UUID})*,?$`, "i");
/** Setting keys whose values are never shown, only that they changed. */
const SECRET_KEY = /password|secret|token|api_?key|credential/i;
/** Fields of stored items that hold ids or file names, not anything a reader would recognise. */
const HIDDEN_FIELDS = new Set(["id", "file_key", "poster_image_id", "image_id"]);

/** True for an id (or list of ids) as older entries stored them: never shown to a reader. */
export function isIdLike(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && ID_OR_IDS.test(value.trim());
}

export function shortenForLog(value: string, max = AUDIT_SHOWN_MAX): AuditText {
  if (value.length <= max) return { text: value, full: null };
  return { text: `${value.slice(0, max).trimEnd()}…`, full: value };
}

function shown(value: string | null | undefined): AuditText | null {
  if (value === null || value === undefined || value === "" || isIdLike(value)) return null;
  return shortenForLog(value);
}

function row(label: string, before: string | null | undefined, after: string | null | undefined): AuditDiffRow[] {
  const old = shown(before);
  const next = shown(after);
  if (!old && !next) return [];
  if (old && next && old.text === next.text && old.full === next.full) return [];
  return [{ label, before: old, after: next }];
}

/** A translation, or null where the dictionary has no such key (the translator answers the key itself). */
function maybe(t: AdminTranslate, key: string, params?: Record<string, string | number>): string | null {
  const text = t(key as AdminMessageKey, params);
  return text === key ? null : text;
}

function parseObject(value: string | null): Record<string, unknown> | null {
  if (!value?.startsWith("{")) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function fieldLabel(t: AdminTranslate, key: string): string {
  return maybe(t, `admin.audit.field.${key}`) ?? key;
}

/** The before/after of an item stored as JSON of its fields (links, FAQ, videos, picture texts), field by field. */
function fieldDiff(t: AdminTranslate, before: string | null, after: string | null): AuditDiffRow[] {
  const old = parseObject(before);
  const next = parseObject(after);
  if (!old && !next) return row(t("admin.audit.field.value"), before, after);
  const keys = [...new Set([...Object.keys(old ?? {}), ...Object.keys(next ?? {})])];
  return keys
    .filter((key) => !HIDDEN_FIELDS.has(key))
    .flatMap((key) => row(fieldLabel(t, key), asText(old?.[key]), asText(next?.[key])));
}

function settingLabel(t: AdminTranslate, key: string): string {
  const own = maybe(t, `admin.settings.field.${key}`);
  if (own) return own;
  const base = key.endsWith("_de") ? maybe(t, `admin.settings.field.${key.slice(0, -3)}`) : null;
  return base ? t("admin.audit.germanField", { label: base }) : key;
}

function settingDiff(t: AdminTranslate, key: string, before: string | null, after: string | null): AuditDiffRow[] {
  const label = settingLabel(t, key);
  if (SECRET_KEY.test(key)) {
    const hidden = { text: t("admin.audit.secret"), full: null };
    return [{ label, before: before ? hidden : null, after: after ? hidden : null }];
  }
  return row(label, before, after);
}

/** "3 sessions ended", "1 session ended (Firefox, Linux)", "2 sessions ended (all others)" as the writers store it. */
function sessionsDiff(t: AdminTranslate, value: string | null): AuditDiffRow[] {
  const match = value?.match(/^(\d+) sessions? ended(?: \((.*)\))?$/);
  if (!match) return row(t("admin.audit.field.value"), null, value);
  const rows = row(t("admin.audit.field.sessionsEnded"), null, match[1]);
  const device = match[2];
  return device && device !== "all others" ? [...rows, ...row(t("admin.audit.field.device"), null, device)] : rows;
}

/** A target named as stored (an address, a code, a file), or "something" where an older entry holds an id. */
function plain(t: AdminTranslate, value: string | null | undefined): string {
  const text = value?.trim();
  return text && !isIdLike(text) ? text : t("admin.audit.unknown");
}

type Area = "gallery" | "links" | "faq" | "videos" | "posts";

/** The item in the sentence, named by its title at the time ("the picture “Alpine lake”"), never by an id. */
function itemName(t: AdminTranslate, area: Area, name: string | null | undefined): string {
  const title = name?.trim();
  if (!title || isIdLike(title)) return t(`admin.audit.unnamed.${area}`);
  return t(`admin.audit.item.${area}`, { name: t("admin.audit.quoted", { name: title }) });
}

type Context = { t: AdminTranslate; record: AuditRecordView; actor: string };
type Said = { params?: Record<string, string | number>; diff?: AuditDiffRow[]; key?: string };
type Rule = (context: Context) => Said;

const named =
  (area: Area, diff?: "fields" | "old" | "new"): Rule =>
  ({ t, record }) => ({
    params: { item: itemName(t, area, record.target) },
    diff:
      diff === "fields"
        ? fieldDiff(t, record.oldValue, record.newValue)
        : diff === "old"
          ? fieldDiff(t, record.oldValue, null)
          : diff === "new"
            ? fieldDiff(t, null, record.newValue)
            : [],
  });

/** A reorder: the one item moved ("moved … up", "… to the top") or, for older entries and bigger changes, the order. */
const reorder =
  (area: Area): Rule =>
  ({ t, record }) => {
    const from = parsePlace(record.oldValue);
    const to = parsePlace(record.newValue);
    if (from && to) {
      const direction =
        to.position === 1 ? "top" : to.position === to.total ? "bottom" : to.position < from.position ? "up" : "down";
      return {
        key: `admin.audit.move.${direction}`,
        params: { item: itemName(t, area, record.target) },
        diff: row(t("admin.audit.field.position"), String(from.position), String(to.position)),
      };
    }
    // Older entries stored ids only: the order changed, and which items is not shown.
    return { diff: row(t("admin.audit.field.order"), null, record.newValue) };
  };

type ContentVerb = "create" | "update" | "delete" | "activate" | "deactivate" | "reorder";
const content = <A extends Area>(area: A) =>
  ({
    [`${area}.create`]: named(area, "new"),
    [`${area}.update`]: named(area, "fields"),
    [`${area}.delete`]: named(area, "old"),
    [`${area}.activate`]: named(area),
    [`${area}.deactivate`]: named(area),
    [`${area}.reorder`]: reorder(area),
  }) as Record<`${A}.${ContentVerb}`, Rule>;

const targetOnly: Rule = ({ t, record }) => ({ params: { target: plain(t, record.target) } });

function backupSize(t: AdminTranslate, value: string | null): AuditDiffRow[] {
  const match = value?.match(/^(\d+) bytes, (\d+) files$/);
  if (!match) return row(t("admin.audit.field.value"), null, value);
  const megabytes = (Number(match[1]) / 1_000_000).toFixed(1);
  return row(
    t("admin.audit.field.contents"),
    null,
    t("admin.audit.backupContents", { megabytes, files: match[2] ?? "0" }),
  );
}

/** A failed background job, named by its kind in words ("Scheduled backup"); the error it had is the old value. */
const failedJob: Rule = ({ t, record }) => {
  const kind = record.target.trim();
  return {
    params: {
      job: kind && !isIdLike(kind) ? t("admin.audit.quoted", { name: jobKindName(t, kind) }) : t("admin.audit.unknown"),
    },
    diff: row(t("admin.audit.field.error"), record.oldValue, null),
  };
};

/** One rule per kind of action: the type refuses a kind of AUDIT_ACTIONS without one. */
const RULES: Record<AuditAction, Rule> = {
  "settings.update": ({ t, record }) => ({
    params: { setting: t("admin.audit.quoted", { name: settingLabel(t, plain(t, record.target)) }) },
    diff: settingDiff(t, record.target, record.oldValue, record.newValue),
  }),
  // A code that gives groups (issue 21) records its note and groups as JSON fields; any other, its note alone.
  "invites.create": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: parseObject(record.newValue)
      ? fieldDiff(t, null, record.newValue)
      : row(t("admin.audit.field.note"), null, record.newValue),
  }),
  "invites.send": ({ t, record }) => ({
    params: { target: plain(t, record.target), email: plain(t, record.newValue) },
  }),
  "invites.delete": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: row(t("admin.audit.field.note"), record.oldValue, null),
  }),
  "users.grantAdmin": targetOnly,
  "users.revokeAdmin": targetOnly,
  "users.signOut": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: sessionsDiff(t, record.newValue),
  }),
  "users.delete": targetOnly,
  "users.password-reset-request": targetOnly,
  "users.password-reset-link": targetOnly,
  "users.password-reset": targetOnly,
  "users.email-change-request": ({ t, record }) => ({
    params: { target: plain(t, record.target), email: plain(t, record.newValue) },
    diff: row(t("admin.audit.field.email"), record.target, record.newValue),
  }),
  "users.email-change": ({ t, record }) => ({
    params: { target: plain(t, record.oldValue ?? record.target), email: plain(t, record.newValue ?? record.target) },
    diff: row(t("admin.audit.field.email"), record.oldValue, record.newValue),
  }),
  "users.two-factor-reset": targetOnly,
  // Member groups (issue 21): an account's groups before and after, by name; a group by its name at the time.
  "users.groups": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: row(t("admin.audit.field.groups"), record.oldValue, record.newValue),
  }),
  "groups.create": targetOnly,
  "groups.rename": ({ t, record }) => ({
    params: { target: plain(t, record.newValue ?? record.target), old: plain(t, record.oldValue) },
  }),
  // The old value holds how many accounts and pieces of content the group had ({"members":2,"content":1}).
  "groups.delete": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: fieldDiff(t, record.oldValue, null),
  }),
  "account.changePassword": ({ t, record }) => ({ diff: sessionsDiff(t, record.newValue) }),
  "account.changeLanguage": ({ t, record }) => {
    const name = (value: string | null) => (value ? (maybe(t, `admin.audit.language.${value}`) ?? value) : null);
    return { diff: row(t("admin.audit.field.language"), name(record.oldValue), name(record.newValue)) };
  },
  "account.endSession": ({ t, record }) => ({ diff: sessionsDiff(t, record.newValue) }),
  "account.two-factor-on": () => ({}),
  "account.two-factor-off": () => ({}),
  "account.recovery-codes-new": () => ({}),
  // Mails about new posts: the new value says how it was turned off ("account page" or "mail link").
  "account.subscribe": () => ({}),
  "account.unsubscribe": ({ t, record }) => ({
    diff: row(
      t("admin.audit.field.how"),
      null,
      maybe(t, `admin.audit.unsubscribedBy.${record.newValue}`) ?? record.newValue,
    ),
  }),
  // Older uploads were recorded under the picture's id with the file's name as the new value.
  "gallery.create": ({ t, record }) => ({
    params: { item: itemName(t, "gallery", isIdLike(record.target) ? record.newValue : record.target) },
    diff: isIdLike(record.target) ? [] : row(t("admin.audit.field.file"), null, record.newValue),
  }),
  "gallery.update": named("gallery", "fields"),
  "gallery.publish": named("gallery"),
  "gallery.unpublish": named("gallery"),
  "gallery.delete": named("gallery", "old"),
  "gallery.reorder": reorder("gallery"),
  // Who may see a picture (issue 21): "everyone", "members" or "groups: <names>" before and after.
  "gallery.access": ({ t, record }) => ({
    params: { item: itemName(t, "gallery", record.target) },
    diff: row(t("admin.audit.field.visibility"), record.oldValue, record.newValue),
  }),
  ...content("links"),
  ...content("faq"),
  ...content("videos"),
  // An empty new value: the owner removed the poster rather than replacing it.
  "videos.poster": (context) =>
    context.record.newValue
      ? named("videos")(context)
      : { key: "admin.audit.poster.removed", params: { item: itemName(context.t, "videos", context.record.target) } },
  // Who may see a video, as for a picture: "everyone", "members" or "groups: <names>" before and after.
  "videos.access": ({ t, record }) => ({
    params: { item: itemName(t, "videos", record.target) },
    diff: row(t("admin.audit.field.visibility"), record.oldValue, record.newValue),
  }),
  "account.changeName": ({ t, record }) => ({
    diff: row(t("admin.audit.field.name"), record.oldValue, record.newValue),
  }),
  "posts.create": named("posts", "new"),
  "posts.update": named("posts", "fields"),
  "posts.delete": named("posts", "old"),
  // A share link made (its expiry and whether it asks a password) or revoked (issue 21).
  "posts.share": named("posts", "new"),
  "posts.unshare": named("posts"),
  // The new value is the publish time (ISO) the post got; the old one its status before.
  "posts.publish": ({ t, record }) => ({
    params: { item: itemName(t, "posts", record.target) },
    diff: row(t("admin.audit.field.publishAt"), null, record.newValue),
  }),
  "posts.schedule": ({ t, record }) => ({
    params: { item: itemName(t, "posts", record.target) },
    diff: row(t("admin.audit.field.publishAt"), null, record.newValue),
  }),
  "posts.unpublish": named("posts"),
  // A picture uploaded in the post editor (cover or inline), named by its file.
  "posts.image-upload": ({ t, record }) => ({ params: { target: plain(t, record.target) } }),
  "mail.dismiss-failures": ({ record }) => ({ params: { count: Number(record.newValue) || 0 } }),
  "backup.download": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: backupSize(t, record.newValue),
  }),
  // A contact message, named by its sender ("Name <address>"); its text stays out of the log.
  "messages.read": targetOnly,
  "messages.unread": targetOnly,
  "messages.delete": targetOnly,
  "jobs.retry": failedJob,
  "jobs.dismiss": failedJob,
  // Albums (issue 21), named by their English title; who may see one as "everyone", "members" or "groups: <names>".
  "albums.create": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: row(t("admin.audit.field.visibility"), null, record.newValue),
  }),
  "albums.update": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: row(t("admin.audit.field.value"), record.oldValue, record.newValue),
  }),
  "albums.access": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: row(t("admin.audit.field.visibility"), record.oldValue, record.newValue),
  }),
  "albums.delete": targetOnly,
  "albums.reorder": () => ({}),
  "albums.addPictures": ({ t, record }) => ({
    params: { target: plain(t, record.target), count: Number(record.newValue) || 0 },
  }),
  "albums.removePicture": ({ t, record }) => ({
    params: { target: plain(t, record.target), picture: plain(t, record.oldValue) },
  }),
  "albums.reorderPictures": targetOnly,
  "albums.cover": targetOnly,
  // A share link made (its expiry and whether it asks a password) or revoked.
  "albums.share": ({ t, record }) => ({
    params: { target: plain(t, record.target) },
    diff: fieldDiff(t, null, record.newValue),
  }),
  "albums.unshare": targetOnly,
};

/** The kinds of action with their own sentence (the rest read as the generic one). */
export function hasOwnSentence(action: string): boolean {
  return isAuditAction(action) && action in RULES;
}

/** Who did it, as the sentence names them: the command line has no address. */
function actorName(t: AdminTranslate, record: AuditRecordView): string {
  return record.actorId === "cli" ? t("admin.audit.actor.cli") : record.actorEmail;
}

/** A kind of entry this version does not know (written by a newer part of the app): still a readable sentence. */
function genericDescription(t: AdminTranslate, record: AuditRecordView, actor: string): AuditDescription {
  const area = record.action.split(".")[0] ?? "";
  const areaName = maybe(t, `admin.audit.areaName.${area}`) ?? area;
  const target = record.target.trim();
  const sentence =
    target && !isIdLike(target)
      ? t("admin.audit.says.generic", { actor, action: record.action, area: areaName, target })
      : t("admin.audit.says.genericUnnamed", { actor, action: record.action, area: areaName });
  return { sentence, diff: fieldDiff(t, record.oldValue, record.newValue) };
}

/**
 * The entry as a sentence in the admin's language ("owner@example.com made max@example.com an admin") with its
 * before/after as a field-by-field diff. Pure: the translator decides the language.
 */
export function describeAuditEntry(record: AuditRecordView, t: AdminTranslate): AuditDescription {
  const actor = actorName(t, record);
  if (!isAuditAction(record.action)) return genericDescription(t, record, actor);
  const said = RULES[record.action]({ t, record, actor });
  const key = said.key ?? `admin.audit.says.${record.action}`;
  return { sentence: t(key as AdminMessageKey, { actor, ...said.params }), diff: said.diff ?? [] };
}
