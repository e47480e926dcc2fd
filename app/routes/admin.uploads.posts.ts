import { storePostImage } from "#app/domains/posts/post-images.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { uploadHandle } from "#app/lib/upload-limit.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.posts";
import { receivePicture } from "./admin.uploads.server.ts";

/** One picture, as large as any image upload may be (UPLOAD_MAX_MB). */
export const handle = uploadHandle((sizes) => [sizes.uploadMaxBytes]);

/**
 * POST /admin/uploads/posts: one picture for a post (its cover, or one placed in its text), field `file`. It goes
 * through the site's image pipeline like a gallery upload and is answered with its `images.id` and how to show it;
 * the editor then refers to it as the cover or as `![alt](image:<id>)` in the Markdown.
 */
export function action(args: Route.ActionArgs) {
  return adminAction(args, (call) =>
    receivePicture(call, { handle }, async (file, _fields, picture) => {
      const stored = await storePostImage(call.db, call.admin, file.path, picture);
      const message = call.t("admin.posts.image.uploaded", { name: picture.originalName });
      return { ok: true, message, ...stored } satisfies ActionResult<typeof stored>;
    }),
  );
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
