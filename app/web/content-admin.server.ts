import type { Kysely } from "kysely";
import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import type { ContentResult } from "#app/domains/content/content.server.ts";
import { addressCompletion } from "#app/domains/content/content-schema.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import type { AdminMessageKey, AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { ROW_ID_PATTERN, rowIdSchema } from "#app/lib/text-schema.ts";
import { AdminRefusal, adminAction } from "./admin-action.server.ts";

/** What a content admin screen can do; each area passes its service (videos wrap theirs). */
export type ContentActions = {
  create: (db: Kysely<Database>, actor: AuditActor, fields: Record<string, string>) => Promise<ContentResult>;
  update: (
    db: Kysely<Database>,
    actor: AuditActor,
    id: string,
    fields: Record<string, string>,
  ) => Promise<ContentResult>;
  remove: (db: Kysely<Database>, actor: AuditActor, id: string, storage: FileStorage) => Promise<ContentResult>;
  setActive: (db: Kysely<Database>, actor: AuditActor, id: string, active: boolean) => Promise<ContentResult>;
  reorder: (db: Kysely<Database>, actor: AuditActor, ids: string[]) => Promise<ContentResult>;
  /**
   * Who may see an item (videos, issue 21), saved by its own form: a move of its files between public and member
   * names happens there. "busy": it changed while its files were copied (answered 409, try again).
   */
  access?: {
    set: (
      db: Kysely<Database>,
      storage: FileStorage,
      actor: AuditActor,
      id: string,
      fields: Record<string, string>,
    ) => Promise<
      | { ok: true; target: string }
      | Exclude<Extract<ContentResult, { ok: false }>, { reason: "stale" }>
      | { ok: false; reason: "busy" }
    >;
    saved: AdminMessageKey;
    busy: AdminMessageKey;
  };
};

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create") }),
  z.object({ intent: z.literal("update"), id: rowIdSchema }),
  z.object({ intent: z.literal("delete"), id: rowIdSchema }),
  z.object({ intent: z.literal("toggle"), id: rowIdSchema, active: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal("access"), id: rowIdSchema }),
  z.object({
    intent: z.literal("reorder"),
    ids: z
      .string()
      .max(100_000)
      .transform((value) => value.split(",").filter(Boolean))
      .refine((ids) => ids.every((id) => ROW_ID_PATTERN.test(id))),
  }),
]);

/** Field errors that offer the submitted address completed (`addressCompletion`). */
const COMPLETION_ERRORS: ReadonlySet<string> = new Set(["admin.links.error.urlScheme", "admin.videos.error.urlScheme"]);

/** Per field whose error offers a completion, the completed value of what was submitted. */
function suggestionsFor(fieldErrors: Record<string, string>, fields: Record<string, string>) {
  const suggestions: Record<string, string> = {};
  for (const [field, key] of Object.entries(fieldErrors)) {
    const completed = COMPLETION_ERRORS.has(key) ? addressCompletion(fields[field] ?? "") : null;
    if (completed) suggestions[field] = completed;
  }
  return suggestions;
}

/**
 * A refused content write as the admin reads it: why, and per field what to fix (zod messages are keys), with
 * the completed address where one only lacked its scheme (in the message, so it reads without JavaScript too).
 */
export function refusalMessage(
  t: AdminTranslate,
  result: Extract<ContentResult, { ok: false }>,
  fields: Record<string, string> = {},
): Extract<ActionResult, { ok: false }> {
  switch (result.reason) {
    case "not-found":
      return { ok: false, message: t("admin.common.notFound") };
    case "stale":
      return { ok: false, message: t("admin.content.stale") };
    case "invalid": {
      const suggestions = suggestionsFor(result.fieldErrors, fields);
      const params = Object.fromEntries(
        Object.entries(suggestions).map(([field, value]) => [field, { suggestion: value }]),
      );
      return {
        ok: false,
        message: t("admin.content.invalid"),
        fieldErrors: translateFieldErrors(t, result.fieldErrors, params),
        ...(Object.keys(suggestions).length > 0 ? { suggestions } : {}),
      };
    }
  }
}

/** The fields a refused new item's form shows again (not the intent, nothing long). */
function submittedValues(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter(([name, value]) => name !== "intent" && name.length <= 40 && value.length <= 5000),
  );
}

/**
 * The one action behind the links, FAQ and video screens, under the admin-action contract: which intent, the
 * service call (one transaction with its audit entry), and the answer as a translated `ActionResult` (400 when
 * refused, so nothing looks like a success).
 */
export function contentAction(
  args: { request: Request; url: URL; context: Readonly<RouterContextProvider> },
  actions: ContentActions,
) {
  return adminAction(args, async ({ admin, t, db, runtime }) => {
    const fields = await readForm(args.request);
    const parsed = intentSchema.safeParse(fields);
    if (!parsed.success) throw new AdminRefusal(400, t("admin.content.badRequest"));
    const command = parsed.data;
    const { storage } = runtime;

    let result: ContentResult;
    let done: (name: string) => string;
    switch (command.intent) {
      case "create":
        result = await actions.create(db, admin, fields);
        done = (name) => t("admin.content.created", { name });
        break;
      case "update":
        result = await actions.update(db, admin, command.id, fields);
        done = (name) => t("admin.content.updated", { name });
        break;
      case "delete":
        result = await actions.remove(db, admin, command.id, storage);
        done = (name) => t("admin.content.deleted", { name });
        break;
      case "toggle": {
        const active = command.active === "true";
        result = await actions.setActive(db, admin, command.id, active);
        done = (name) => t(active ? "admin.content.published" : "admin.content.hidden", { name });
        break;
      }
      case "reorder":
        result = await actions.reorder(db, admin, command.ids);
        done = () => t("admin.common.orderSaved");
        break;
      case "access": {
        const access = actions.access;
        if (!access) throw new AdminRefusal(400, t("admin.content.badRequest"));
        const outcome = await access.set(db, storage, admin, command.id, fields);
        if (!outcome.ok && outcome.reason === "busy") throw new AdminRefusal(409, t(access.busy));
        result = outcome.ok ? { ok: true, id: command.id, target: outcome.target } : outcome;
        done = (name) => t(access.saved, { name });
        break;
      }
    }

    if (!result.ok) {
      const refusal = refusalMessage(t, result, fields);
      // Without JavaScript the page itself answers a new item's form: it shows what was typed again.
      const values = command.intent === "create" ? { values: submittedValues(fields) } : {};
      throw AdminRefusal.of(400, { ...refusal, ...values });
    }
    return { ok: true, message: done(result.target), id: result.id } satisfies ActionResult;
  });
}
