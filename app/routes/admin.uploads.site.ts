import { redirect } from "react-router";
import { ImageError } from "#app/domains/media/image-encode.server.ts";
import { formatMegabytes, isImageType } from "#app/domains/media/upload.server.ts";
import { storeSiteImage } from "#app/domains/settings/site-images.server.ts";
import { isSiteImageKind } from "#app/domains/settings/site-images.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { uploadHandle } from "#app/lib/upload-limit.ts";
import { AdminRefusal, adminAction, withUpload } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.uploads.site";

/** One picture, as large as any image upload may be (UPLOAD_MAX_MB). */
export const handle = uploadHandle((sizes) => [sizes.uploadMaxBytes]);

/**
 * POST /admin/uploads/site/(logo|favicon|share-image): one image as multipart/form-data (field `file`),
 * streamed to a temp file, recognised by its content, turned into the site image and saved in its setting.
 * The settings screen sends it with `Accept: application/json` and gets an ActionResult with the new URL;
 * a plain form post (no JavaScript) is sent back to the settings screen, and a refusal is its message as text.
 */
export function action(args: Route.ActionArgs) {
  const wantsJson = (args.request.headers.get("Accept") ?? "").includes("application/json");
  const asText = (refusal: AdminRefusal) =>
    wantsJson
      ? Response.json(refusal.result, { status: refusal.status })
      : new Response(refusal.message, {
          status: refusal.status,
          headers: { "Content-Type": "text/plain; charset=utf-8" },
        });
  return adminAction(
    args,
    async (call) => {
      const { t } = call;
      const kind = args.params.kind;
      if (!isSiteImageKind(kind)) throw new AdminRefusal(404, t("admin.settings.upload.unknownKind"));
      const describe = (error: { status: number }, maxBytes: number) =>
        error.status === 413
          ? t("admin.settings.upload.tooLarge", { max: formatMegabytes(maxBytes) })
          : t("admin.settings.upload.failed");
      return withUpload(call, { handle, describe }, async (upload) => {
        const file = upload.files[0];
        if (!file) throw new AdminRefusal(400, t("admin.settings.upload.noFile"));
        if (!isImageType(file.recognised)) throw new AdminRefusal(415, t("admin.settings.upload.notImage"));
        let imageUrl: string;
        try {
          ({ url: imageUrl } = await storeSiteImage(call.db, call.admin, kind, file.path, call.runtime.storage));
        } catch (error) {
          if (!(error instanceof ImageError)) throw error;
          throw new AdminRefusal(error.code === "too_large" ? 413 : 415, t("admin.settings.upload.notImage"));
        }
        if (!wantsJson)
          throw redirect(kind === "share-image" ? "/admin/settings?section=sharing" : "/admin/settings", 303);
        const answer = { ok: true, message: t("admin.settings.upload.done"), url: imageUrl };
        return Response.json(answer satisfies ActionResult<{ url: string }>);
      });
    },
    asText,
  );
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
