import { galleryUploadSchema } from "#app/domains/gallery/gallery-schema.ts";
import { createGalleryEntry } from "#app/domains/gallery/gallery-upload.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { uploadHandle } from "#app/lib/upload-limit.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.gallery";
import { receivePicture } from "./admin.uploads.server.ts";

const UPLOAD_FIELDS = ["publish", "placement", "after"];

/** One picture, as large as any image upload may be (UPLOAD_MAX_MB). */
export const handle = uploadHandle((sizes) => [sizes.uploadMaxBytes]);

/**
 * One picture per request (the admin screen sends each file on its own, for per-file progress and errors):
 * the body is streamed to a temp file, checked by content, processed, and added to the gallery as the uploader's
 * choices say (published or hidden, at the top or the bottom; a file sent without them: hidden, at the bottom).
 */
export function action(args: Route.ActionArgs) {
  return adminAction(args, (call) =>
    receivePicture(call, { handle, fields: UPLOAD_FIELDS }, async (file, fields, picture) => {
      const choices = call.parse(galleryUploadSchema, fields, {
        message: call.t("admin.common.error"),
        fieldErrors: false,
      });
      const id = await createGalleryEntry(call.db, call.admin, file.path, {
        ...picture,
        published: choices.publish === "now",
        placement: choices.placement,
        after: choices.after,
      });
      return {
        ok: true,
        message: call.t("admin.gallery.uploaded", { name: picture.originalName }),
        id,
      } satisfies ActionResult;
    }),
  );
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
