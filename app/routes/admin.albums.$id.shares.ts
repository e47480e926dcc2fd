import { shareLinksAction, shareLinksLoader } from "#app/web/share-links-admin.server.ts";
import type { Route } from "./+types/admin.albums.$id.shares";

/* An album's share links (issue 21), for its editor: the list, make one, revoke one (share-links-admin.server.ts). */

export function loader(args: Route.LoaderArgs) {
  return shareLinksLoader(args, "album");
}

export function action(args: Route.ActionArgs) {
  return shareLinksAction(args, "album", async (db, id) => {
    const album = await db.selectFrom("albums").select(["id", "title"]).where("id", "=", id).executeTakeFirst();
    return album ?? null;
  });
}
