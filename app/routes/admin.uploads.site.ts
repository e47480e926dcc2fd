import { redirect } from "react-router";
import { ImageError } from "#app/domains/media/image-encode.server.ts";
import { formatMegabytes, storageRefusal, UploadError, uploadTempDir } from "#app/domains/media/upload.server.ts";
import { storeSiteImage } from "#app/domains/settings/site-images.server.ts";
import { isSiteImageKind } from "#app/domains/settings/site-images.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { receiveLimits, uploadHandle } from "#app/lib/upload-limit.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { receiveUpload } from "#app/web/receive-upload.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.site";

/** One picture, as large as any image upload may be (UPLOAD_MAX_MB). */
export const handle = uploadHandle((sizes) => [sizes.uploadMaxBytes]);

/**
 * POST /admin/uploads/site/(logo|favicon|share-image): one image as multipart/form-data (field `file`),
 * streamed to a temp file, recognised by its content, turned into the site image and saved in its setting.
 * The settings screen sends it with `Accept: application/json` and gets an ActionResult with the new URL;
 * a plain form post (no JavaScript) is sent back to the settings screen.
 */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const wantsJson = (request.headers.get("Accept") ?? "").includes("application/json");
  const { env } = runtimeOf(context);
  const limits = receiveLimits(handle.upload.fileLimits, env);
  const tempDir = uploadTempDir(env.dataDir);
  const maxBytes = limits.maxBytes;
  const refuse = (status: number, message: string) =>
    wantsJson
      ? Response.json({ ok: false, message } satisfies ActionResult, { status })
      : new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

  const kind = params.kind;
  if (!isSiteImageKind(kind)) return refuse(404, t("admin.settings.upload.unknownKind"));

  let upload: Awaited<ReturnType<typeof receiveUpload>>;
  try {
    upload = await receiveUpload(request, { ...limits, tempDir });
  } catch (error) {
    const full = storageRefusal(error);
    if (full) return refuse(full.status, t(full.messageKey));
    if (!(error instanceof UploadError)) throw error;
    const message =
      error.status === 413
        ? t("admin.settings.upload.tooLarge", { max: formatMegabytes(maxBytes) })
        : t("admin.settings.upload.failed");
    return refuse(error.status, message);
  }
  try {
    const file = upload.files[0];
    if (!file) return refuse(400, t("admin.settings.upload.noFile"));
    const { url: imageUrl } = await storeSiteImage(
      runtimeOf(context).database.db,
      admin,
      kind,
      file.path,
      runtimeOf(context).storage,
    );
    if (!wantsJson) throw redirect(kind === "share-image" ? "/admin/settings?section=sharing" : "/admin/settings", 303);
    return Response.json({ ok: true, message: t("admin.settings.upload.done"), url: imageUrl });
  } catch (error) {
    const full = storageRefusal(error);
    if (full) return refuse(full.status, t(full.messageKey));
    if (error instanceof ImageError) {
      return refuse(error.code === "too_large" ? 413 : 415, t("admin.settings.upload.notImage"));
    }
    throw error;
  } finally {
    await upload.cleanup();
  }
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
