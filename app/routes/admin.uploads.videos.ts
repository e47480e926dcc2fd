import { formatMegabytes } from "#app/domains/media/upload.server.ts";
import { runUploadCommand, uploadCommandSchema, VIDEO_UPLOAD_FIELDS } from "#app/domains/videos/video-upload.server.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { uploadHandle } from "#app/lib/upload-limit.ts";
import { AdminRefusal, adminAction, withUpload } from "#app/web/admin-action.server.ts";
import { refusalMessage } from "#app/web/content-admin.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.videos";

/** A refused file: the message, also on the file field it concerns (the form shows it on that input). */
function refused(field: "video" | "poster", message: string, status: number): AdminRefusal {
  return new AdminRefusal(status, message, { fieldErrors: { [field]: message } });
}

const SUCCESS_MESSAGES = {
  create: "admin.content.created",
  poster: "admin.videos.poster.saved",
  removePoster: "admin.videos.poster.removed",
} as const;

/** A video file (VIDEO_UPLOAD_MAX_MB) and its poster picture (UPLOAD_MAX_MB) in one request. */
export const handle = uploadHandle((sizes) => [sizes.videoUploadMaxBytes, sizes.uploadMaxBytes]);

/**
 * Video uploads (a new video with its file and poster, a new poster for a video, or a poster's removal): a resource route under
 * /admin/uploads/, so the body is streamed to disk instead of being held in memory. Answers an ActionResult
 * as JSON; a refusal stores nothing.
 */
export function action(args: Route.ActionArgs) {
  return adminAction(
    args,
    async (call) => {
      const { t, runtime } = call;
      const options = {
        videoMaxBytes: runtime.env.videoUploadMaxBytes,
        posterMaxBytes: runtime.env.uploadMaxBytes,
        storage: runtime.storage,
      };
      const videoMax = formatMegabytes(options.videoMaxBytes);
      const posterMax = formatMegabytes(options.posterMaxBytes);
      const describe = (error: { status: number }) =>
        error.status === 413 ? t("admin.videos.upload.tooLarge", { max: videoMax }) : t("admin.videos.upload.failed");

      return withUpload(call, { handle, fields: VIDEO_UPLOAD_FIELDS, describe }, async (upload) => {
        const command = call.parse(uploadCommandSchema, upload.fields, {
          message: t("admin.content.badRequest"),
          fieldErrors: false,
        });
        const { intent } = command;
        const outcome = await runUploadCommand(call.db, call.admin, command, upload, options);
        if (outcome.ok) {
          const message = t(SUCCESS_MESSAGES[intent], { name: outcome.target });
          return Response.json({ ok: true, message, id: outcome.id } satisfies ActionResult);
        }
        switch (outcome.reason) {
          case "invalid":
          case "not-found":
          case "stale":
            throw AdminRefusal.of(outcome.reason === "not-found" ? 404 : 400, refusalMessage(t, outcome));
          case "no-file":
            throw refused(
              intent === "create" ? "video" : "poster",
              t(intent === "create" ? "admin.videos.upload.noFile" : "admin.videos.poster.noFile"),
              400,
            );
          case "not-video":
            throw refused("video", t("admin.videos.upload.notVideo"), 415);
          case "not-image":
            throw refused("poster", t("admin.videos.upload.notImage"), 415);
          case "video-too-large":
            throw refused("video", t("admin.videos.upload.tooLarge", { max: videoMax }), 413);
          case "poster-too-large":
            throw refused("poster", t("admin.videos.upload.posterTooLarge", { max: posterMax }), 413);
          case "no-poster":
            throw new AdminRefusal(400, t("admin.videos.poster.nothingToRemove", { name: outcome.target }));
        }
      });
    },
    // Always JSON, as the video forms read it (they send no Accept header of their own).
    (refusal) => Response.json(refusal.result, { status: refusal.status }),
  );
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
