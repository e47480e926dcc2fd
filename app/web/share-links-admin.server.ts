import type { Kysely } from "kysely";
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import {
  createShareLink,
  listShareLinks,
  revokeShareLink,
  type ShareKind,
} from "#app/domains/shares/share-links.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { ROW_ID_PATTERN, rowIdSchema } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { AdminRefusal, adminAction } from "./admin-action.server.ts";
import { requireAdmin } from "./session.server.ts";

/*
 * An item's share links (issue 21), for its editor (a post's, an album's): the list (GET, JSON) and its two writes,
 * make one (answered with its address once: only the token's hash is kept) and revoke one. The admin contract: admin
 * check, zod, the audit entry in the write's transaction.
 */

type Args = { request: Request; url: URL; params: { id: string }; context: Readonly<RouterContextProvider> };
/** The item the links are of, named as the audit log names it; null when it is gone. */
export type SharedItemLookup = (db: Kysely<Database>, id: string) => Promise<{ id: string; title: string } | null>;

export async function shareLinksLoader({ url, params, context }: Omit<Args, "request">, kind: ShareKind) {
  requireAdmin(url, context);
  const headers = { "Cache-Control": "no-store" };
  if (!ROW_ID_PATTERN.test(params.id)) return data({ links: [] }, { status: 404, headers });
  return data({ links: await listShareLinks(runtimeOf(context).database.db, kind, params.id) }, { headers });
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create") }),
  z.object({ intent: z.literal("revoke"), link: rowIdSchema }),
]);

export function shareLinksAction(args: Args, kind: ShareKind, lookup: SharedItemLookup) {
  return adminAction(args, async ({ admin, t, db, parse, runtime }) => {
    const form = await readForm(args.request);
    const intent = parse(intentSchema, form, { message: t("admin.common.error"), fieldErrors: false });
    const item = ROW_ID_PATTERN.test(args.params.id) ? await lookup(db, args.params.id) : null;
    if (!item) throw new AdminRefusal(404, t("admin.common.notFound"));
    if (intent.intent === "revoke") {
      const revoked = await revokeShareLink(db, admin, { kind, itemId: item.id, id: intent.link, target: item.title });
      if (!revoked) throw new AdminRefusal(404, t("admin.common.notFound"));
      return { ok: true, message: t("admin.shares.revoked") } satisfies ActionResult;
    }
    const made = await createShareLink(db, admin, { kind, itemId: item.id, target: item.title, fields: form });
    if (!made.ok && made.reason === "not-found") throw new AdminRefusal(404, t("admin.common.notFound"));
    if (!made.ok) {
      throw new AdminRefusal(400, t("admin.shares.invalid"), {
        fieldErrors: translateFieldErrors(t, made.fieldErrors),
      });
    }
    return {
      ok: true,
      message: t("admin.shares.created"),
      id: made.id,
      url: new URL(made.path, runtime.env.baseUrl).toString(),
    } satisfies ActionResult<{ url: string }>;
  });
}
