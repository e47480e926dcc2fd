import { data } from "react-router";
import { galleryUploadSchema } from "#app/domains/gallery/gallery-schema.ts";
import { createGalleryEntry } from "#app/domains/gallery/gallery-upload.server.ts";
import { watermarkText } from "#app/domains/media/image-watermarks.server.ts";
import { uploadTempDir } from "#app/domains/media/upload.server.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { receiveLimits, uploadHandle } from "#app/lib/upload-limit.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { receiveUpload } from "#app/web/receive-upload.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.gallery";
import { imageRefusal, receiveRefusal } from "./admin.uploads.server.ts";

const UPLOAD_FIELDS = ["publish", "placement", "after"];

const refused = (message: string, status: number) => data<ActionResult>({ ok: false, message }, { status });

/** One picture, as large as any image upload may be (UPLOAD_MAX_MB). */
export const handle = uploadHandle((sizes) => [sizes.uploadMaxBytes]);

/**
 * One picture per request (the admin screen sends each file on its own, for per-file progress and errors):
 * the body is streamed to a temp file, checked by content, processed, and added to the gallery as the uploader's
 * choices say (published or hidden, at the top or the bottom; a file sent without them: hidden, at the bottom).
 */
export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const { env } = runtimeOf(context);
  const limits = receiveLimits(handle.upload.fileLimits, env);
  const tempDir = uploadTempDir(env.dataDir);

  let upload: Awaited<ReturnType<typeof receiveUpload>>;
  try {
    upload = await receiveUpload(request, { ...limits, tempDir, fields: UPLOAD_FIELDS });
  } catch (error) {
    const refusal = receiveRefusal(error, t, limits.maxBytes);
    return refused(refusal.message, refusal.status);
  }

  try {
    const file = upload.files[0];
    if (!file) return refused(t("admin.gallery.error.noFile"), 400);
    const name = file.originalName;
    const choices = galleryUploadSchema.safeParse(upload.fields);
    if (!choices.success) return refused(t("admin.common.error"), 400);
    let id: string;
    try {
      const settings = await requestSettings(context);
      id = await createGalleryEntry(runtimeOf(context).database.db, admin, file.path, {
        originalName: name,
        storage: runtimeOf(context).storage,
        watermark: watermarkText(settings),
        published: choices.data.publish === "now",
        placement: choices.data.placement,
        after: choices.data.after,
      });
    } catch (error) {
      const refusal = imageRefusal(error, t, name);
      return refused(refusal.message, refusal.status);
    }
    return data<ActionResult>({ ok: true, message: t("admin.gallery.uploaded", { name }), id });
  } finally {
    await upload.cleanup();
  }
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
