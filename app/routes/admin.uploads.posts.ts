import { data } from "react-router";
import { watermarkText } from "#app/domains/media/image-watermarks.server.ts";
import { uploadTempDir } from "#app/domains/media/upload.server.ts";
import { storePostImage } from "#app/domains/posts/post-images.server.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { receiveLimits, uploadHandle } from "#app/lib/upload-limit.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { receiveUpload } from "#app/web/receive-upload.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.posts";
import { imageRefusal, receiveRefusal } from "./admin.uploads.server.ts";

const refused = (message: string, status: number) => data<ActionResult>({ ok: false, message }, { status });

/** One picture, as large as any image upload may be (UPLOAD_MAX_MB). */
export const handle = uploadHandle((sizes) => [sizes.uploadMaxBytes]);

/**
 * POST /admin/uploads/posts: one picture for a post (its cover, or one placed in its text), field `file`. It goes
 * through the site's image pipeline like a gallery upload and is answered with its `images.id` and how to show it;
 * the editor then refers to it as the cover or as `![alt](image:<id>)` in the Markdown.
 */
export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const { env } = runtimeOf(context);
  const limits = receiveLimits(handle.upload.fileLimits, env);
  const tempDir = uploadTempDir(env.dataDir);

  let upload: Awaited<ReturnType<typeof receiveUpload>>;
  try {
    upload = await receiveUpload(request, { ...limits, tempDir });
  } catch (error) {
    const refusal = receiveRefusal(error, t, limits.maxBytes);
    return refused(refusal.message, refusal.status);
  }

  try {
    const file = upload.files[0];
    if (!file) return refused(t("admin.gallery.error.noFile"), 400);
    const name = file.originalName;
    try {
      const settings = await requestSettings(context);
      const stored = await storePostImage(runtimeOf(context).database.db, admin, file.path, {
        originalName: name,
        watermark: watermarkText(settings),
        storage: runtimeOf(context).storage,
      });
      return data({ ok: true as const, message: t("admin.posts.image.uploaded", { name }), ...stored });
    } catch (error) {
      const refusal = imageRefusal(error, t, name);
      return refused(refusal.message, refusal.status);
    }
  } finally {
    await upload.cleanup();
  }
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
