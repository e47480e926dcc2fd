import { data } from "react-router";
import { readForm } from "#app/lib/forms.server.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.posts.autosave";
import { editorStatus, NEW_POST, runEditorAction } from "./admin.posts.$id.server.ts";

/**
 * The editor saving a draft by itself, a few seconds after each change: JSON in, JSON out, so a lost connection
 * is the editor's to handle (it keeps the text in the browser and tries again) rather than a page error.
 * `post_id` names the draft, empty for a post not written yet (the answer then gives its new id). A post
 * visitors may see is refused here: it changes only when the admin saves it.
 */
export function action(args: Route.ActionArgs) {
  return adminAction(args, async ({ admin, t, db, runtime }) => {
    const form = await readForm(args.request);
    const storage = runtime.storage;
    const result = await runEditorAction(db, admin, NEW_POST, { ...form, intent: "autosave" }, { t, storage });
    return data(result, {
      status: editorStatus(result),
      headers: { "Cache-Control": "no-store" },
    });
  });
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
