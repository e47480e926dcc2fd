import type { Kysely } from "kysely";
import { data } from "react-router";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import { type AdminTranslate, adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { getDb } from "#app/lib/runtime.server.ts";
import { ROW_ID_PATTERN, rowIdSchema } from "#app/lib/text-schema.ts";
import type { ContentResult } from "./content.server.ts";

/** What a content admin screen can do; each area passes its service (videos wrap theirs). */
export type ContentActions = {
  create: (db: Kysely<Database>, actor: AuditActor, fields: Record<string, string>) => Promise<ContentResult>;
  update: (
    db: Kysely<Database>,
    actor: AuditActor,
    id: string,
    fields: Record<string, string>,
  ) => Promise<ContentResult>;
  remove: (db: Kysely<Database>, actor: AuditActor, id: string) => Promise<ContentResult>;
  setActive: (db: Kysely<Database>, actor: AuditActor, id: string, active: boolean) => Promise<ContentResult>;
  reorder: (db: Kysely<Database>, actor: AuditActor, ids: string[]) => Promise<ContentResult>;
};

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create") }),
  z.object({ intent: z.literal("update"), id: rowIdSchema }),
  z.object({ intent: z.literal("delete"), id: rowIdSchema }),
  z.object({ intent: z.literal("toggle"), id: rowIdSchema, active: z.enum(["true", "false"]) }),
  z.object({
    intent: z.literal("reorder"),
    ids: z
      .string()
      .max(100_000)
      .transform((value) => value.split(",").filter(Boolean))
      .refine((ids) => ids.every((id) => ROW_ID_PATTERN.test(id))),
  }),
]);

/** A refused content write as the admin reads it: why, and per field what to fix (zod messages are keys). */
export function refusalMessage(
  t: AdminTranslate,
  result: Extract<ContentResult, { ok: false }>,
): Extract<ActionResult, { ok: false }> {
  switch (result.reason) {
    case "not-found":
      return { ok: false, message: t("admin.common.notFound") };
    case "stale":
      return { ok: false, message: t("admin.content.stale") };
    case "invalid":
      return {
        ok: false,
        message: t("admin.content.invalid"),
        fieldErrors: translateFieldErrors(t, result.fieldErrors),
      };
  }
}

/**
 * The one action behind the links, FAQ and video screens, after the route's `requireAdmin`: which intent,
 * the service call, and the answer as a translated `ActionResult` (400 when refused, so nothing looks like
 * a success).
 */
export async function contentAction(request: Request, admin: AuditActor, actions: ContentActions) {
  const t = adminTranslatorFor(languageOf(request).lang);
  const fields = await readForm(request);
  const parsed = intentSchema.safeParse(fields);
  if (!parsed.success)
    return data({ ok: false, message: t("admin.content.badRequest") } satisfies ActionResult, { status: 400 });
  const command = parsed.data;
  const db = getDb();

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
      result = await actions.remove(db, admin, command.id);
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
  }

  if (!result.ok) return data(refusalMessage(t, result), { status: 400 });
  return { ok: true, message: done(result.target), id: result.id } satisfies ActionResult;
}
