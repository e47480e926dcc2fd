import type { Kysely } from "kysely";
import { data } from "react-router";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import { type AdminMessageKey, type AdminTranslate, adminEn, adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { getDb } from "#app/lib/runtime.server.ts";
import { withoutControlCharacters } from "#app/lib/text-schema.ts";
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

/** A row id as a form sends it. */
export const ID = z.string().min(1).max(100).refine(withoutControlCharacters);
const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create") }),
  z.object({ intent: z.literal("update"), id: ID }),
  z.object({ intent: z.literal("delete"), id: ID }),
  z.object({ intent: z.literal("toggle"), id: ID, active: z.enum(["true", "false"]) }),
  z.object({
    intent: z.literal("reorder"),
    ids: z
      .string()
      .max(100_000)
      .refine(withoutControlCharacters)
      .transform((value) => value.split(",").filter(Boolean)),
  }),
]);

function isAdminKey(value: string): value is AdminMessageKey {
  return value in adminEn;
}

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
    case "invalid": {
      const fieldErrors: Record<string, string> = {};
      for (const [field, message] of Object.entries(result.fieldErrors)) {
        fieldErrors[field] = isAdminKey(message) ? t(message) : message;
      }
      return { ok: false, message: t("admin.content.invalid"), fieldErrors };
    }
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
      done = (name) => t(active ? "admin.content.shown" : "admin.content.hidden", { name });
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
