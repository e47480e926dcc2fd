import { data } from "react-router";
import { getPostForAdmin } from "#app/domains/posts/post-admin.server.ts";
import type { PostConflict } from "#app/domains/posts/post-editor-form.ts";
import { ROW_ID_PATTERN } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.posts.$id.state";
import { formValuesOf } from "./admin.posts.$id.server.ts";

/**
 * The post as stored now, as JSON, for an open editor told by the live stream that the post changed: it compares
 * the `updatedAt` with the one its text is based on, without reloading the page (which would replace the text
 * being typed). A post that is gone answers 404 with `gone`.
 */
export async function loader({ url, params, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const headers = { "Cache-Control": "no-store" };
  const post = ROW_ID_PATTERN.test(params.id)
    ? await getPostForAdmin(runtimeOf(context).database.db, params.id, {})
    : null;
  if (!post) return data({ gone: true as const }, { status: 404, headers });
  const state: PostConflict = { values: formValuesOf(post), updatedAt: post.updatedAt, cover: post.cover };
  return data(state, { headers });
}
