import { getPostForAdmin } from "#app/domains/posts/post-admin.server.ts";
import { shareLinksAction, shareLinksLoader } from "#app/web/share-links-admin.server.ts";
import type { Route } from "./+types/admin.posts.$id.shares";

/* A post's share links (issue 21), for the editor: the list, make one, revoke one (share-links-admin.server.ts). */

export function loader(args: Route.LoaderArgs) {
  return shareLinksLoader(args, "post");
}

export function action(args: Route.ActionArgs) {
  return shareLinksAction(args, "post", async (db, id) => {
    const post = await getPostForAdmin(db, id);
    return post ? { id: post.id, title: post.title } : null;
  });
}
