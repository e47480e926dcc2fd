import { placeUploadInAlbum, uploadAccessOf } from "#app/domains/albums/album-uploads.server.ts";
import { galleryUploadSchema } from "#app/domains/gallery/gallery-schema.ts";
import { createGalleryEntry } from "#app/domains/gallery/gallery-upload.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { rowIdOrNull } from "#app/lib/text-schema.ts";
import { uploadHandle } from "#app/lib/upload-limit.ts";
import { adminAction } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.gallery";
import { announceAlbum } from "./admin.albums.$id.server.ts";
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
      // Sent from an album's editor (issue 21): the picture also goes at that album's end, and into a restricted
      // album hidden until it has the album's readers (album-uploads.server.ts).
      const albumId = rowIdOrNull(args.url.searchParams.get("album"));
      const restricted = albumId !== null && (await uploadAccessOf(call.db, albumId)) !== null;
      const id = await createGalleryEntry(call.db, call.admin, file.path, {
        ...picture,
        published: choices.publish === "now" && !restricted,
        placement: choices.placement,
        after: choices.after,
      });
      if (albumId) {
        const input = { albumId, pictureId: id, publish: choices.publish === "now" };
        if (!(await placeUploadInAlbum(call.db, call.runtime.storage, call.admin, input))) {
          return { ok: true, message: call.t("admin.albums.uploadedAlbumGone", { name: picture.originalName }), id };
        }
        announceAlbum(call.db, albumId);
      }
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
