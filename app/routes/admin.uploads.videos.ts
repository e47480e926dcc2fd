import {
  formatMegabytes,
  type ReceivedUpload,
  storageRefusal,
  UploadError,
  uploadTempDir,
} from "#app/domains/media/upload.server.ts";
import {
  runUploadCommand,
  type UploadOutcome,
  uploadCommandSchema,
  VIDEO_UPLOAD_FIELDS,
} from "#app/domains/videos/video-upload.server.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { receiveLimits, uploadHandle } from "#app/lib/upload-limit.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { refusalMessage } from "#app/web/content-admin.server.ts";
import { receiveUpload } from "#app/web/receive-upload.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.videos";

function answer(result: ActionResult, status = 200): Response {
  return Response.json(result, { status });
}

/** A refused file: the message, also on the file field it concerns (the form shows it on that input). */
function refused(field: "video" | "poster", message: string, status: number): Response {
  return answer({ ok: false, message, fieldErrors: { [field]: message } }, status);
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
export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const { env } = runtimeOf(context);
  const options = {
    videoMaxBytes: env.videoUploadMaxBytes,
    posterMaxBytes: env.uploadMaxBytes,
    storage: runtimeOf(context).storage,
  };
  const videoMax = formatMegabytes(options.videoMaxBytes);
  const posterMax = formatMegabytes(options.posterMaxBytes);

  let upload: ReceivedUpload;
  try {
    upload = await receiveUpload(request, {
      ...receiveLimits(handle.upload.fileLimits, env),
      tempDir: uploadTempDir(env.dataDir),
      fields: VIDEO_UPLOAD_FIELDS,
    });
  } catch (error) {
    const full = storageRefusal(error);
    if (full) return answer({ ok: false, message: t(full.messageKey) }, full.status);
    if (!(error instanceof UploadError)) throw error;
    const message =
      error.status === 413 ? t("admin.videos.upload.tooLarge", { max: videoMax }) : t("admin.videos.upload.failed");
    return answer({ ok: false, message }, error.status);
  }

  try {
    const command = uploadCommandSchema.safeParse(upload.fields);
    if (!command.success) return answer({ ok: false, message: t("admin.content.badRequest") }, 400);
    const { intent } = command.data;
    let outcome: UploadOutcome;
    try {
      outcome = await runUploadCommand(runtimeOf(context).database.db, admin, command.data, upload, options);
    } catch (error) {
      const full = storageRefusal(error);
      if (!full) throw error;
      return answer({ ok: false, message: t(full.messageKey) }, full.status);
    }

    if (outcome.ok) {
      const message = t(SUCCESS_MESSAGES[intent], { name: outcome.target });
      return answer({ ok: true, message, id: outcome.id });
    }
    switch (outcome.reason) {
      case "invalid":
      case "not-found":
      case "stale":
        return answer(refusalMessage(t, outcome), outcome.reason === "not-found" ? 404 : 400);
      case "no-file":
        return refused(
          intent === "create" ? "video" : "poster",
          t(intent === "create" ? "admin.videos.upload.noFile" : "admin.videos.poster.noFile"),
          400,
        );
      case "not-video":
        return refused("video", t("admin.videos.upload.notVideo"), 415);
      case "not-image":
        return refused("poster", t("admin.videos.upload.notImage"), 415);
      case "video-too-large":
        return refused("video", t("admin.videos.upload.tooLarge", { max: videoMax }), 413);
      case "poster-too-large":
        return refused("poster", t("admin.videos.upload.posterTooLarge", { max: posterMax }), 413);
      case "no-poster":
        return answer({ ok: false, message: t("admin.videos.poster.nothingToRemove", { name: outcome.target }) }, 400);
    }
  } finally {
    await upload.cleanup();
  }
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
