import { data } from "react-router";
import { z } from "zod";
import { leavePresence, listPresence, notePresence } from "#app/domains/posts/post-presence.server.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { ROW_ID_PATTERN } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.posts.$id.presence";

/** A browser tab's own name for itself (crypto.randomUUID in the editor). */
const tabSchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);
const presenceSchema = z.object({ intent: z.enum(["here", "leave"]), tab: tabSchema });
const NO_STORE = { "Cache-Control": "no-store" };

/**
 * An open post editor says it is there (on opening, then every 20 s) or that it leaves (closing the tab, going
 * elsewhere: sent as a beacon). The answer to "here" lists the other editors of the post, so a heartbeat is also
 * the check of who else is there; arrivals and departures reach the others as change events.
 */
export function action(args: Route.ActionArgs) {
  return adminAction(args, async ({ admin, t, db, parse }) => {
    const postId = parse(z.string().regex(ROW_ID_PATTERN), args.params.id, {
      message: t("admin.posts.notFound"),
      status: 404,
      fieldErrors: false,
    });
    const input = parse(presenceSchema, await readForm(args.request), {
      message: t("admin.common.error"),
      fieldErrors: false,
    });
    if (input.intent === "leave") {
      await leavePresence(db, { postId, tab: input.tab });
      return data({ ok: true as const, others: [] }, { headers: NO_STORE });
    }
    const post = await db.selectFrom("posts").select("id").where("id", "=", postId).executeTakeFirst();
    if (!post) return data({ ok: false as const, message: t("admin.posts.notFound") }, { status: 404 });
    await notePresence(db, { postId, tab: input.tab, userId: admin.id });
    const others = await listPresence(db, { postId, tab: input.tab, userId: admin.id });
    return data({ ok: true as const, others }, { headers: NO_STORE });
  });
}

/** Who else has the post open, for an editor told by the live stream that someone came or went (`?tab=` is its own). */
export async function loader({ url, params, context }: Route.LoaderArgs) {
  const admin = requireAdmin(url, context);
  const tab = tabSchema.safeParse(url.searchParams.get("tab"));
  if (!ROW_ID_PATTERN.test(params.id) || !tab.success) {
    return data({ others: [] }, { status: 400, headers: NO_STORE });
  }
  const others = await listPresence(runtimeOf(context).database.db, {
    postId: params.id,
    tab: tab.data,
    userId: admin.id,
  });
  return data({ others }, { headers: NO_STORE });
}
