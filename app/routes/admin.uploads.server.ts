import { ImageError } from "#app/domains/media/image-encode.server.ts";
import { watermarkText } from "#app/domains/media/image-watermarks.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { formatMegabytes, type ImageType, isImageType, type UploadedFile } from "#app/domains/media/upload.server.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";
import type { UploadHandle } from "#app/lib/upload-limit.ts";
import { type AdminCall, AdminRefusal, withUpload } from "#app/web/admin-action.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";

/**
 * What the image pipeline is given besides the file: its name, the picture type it was recognised as, where it goes,
 * and the watermark of the settings.
 */
export type PictureOptions = { originalName: string; type: ImageType; storage: FileStorage; watermark: string };

/**
 * The picture uploads of the gallery and the posts: one file, received within the route's limit, refused in the
 * admin's words when it is missing, too big, not recognised as a picture or refused by the pipeline, else handed
 * to `store` with the watermark the settings ask for. The temp file is removed afterwards either way.
 */
export async function receivePicture<R>(
  call: AdminCall,
  options: { handle: UploadHandle; fields?: string[] },
  store: (file: UploadedFile, fields: Record<string, string>, picture: PictureOptions) => Promise<R>,
): Promise<R> {
  const { t } = call;
  const describe = (error: { status: number; fileName?: string; message: string }, maxBytes: number) =>
    error.status === 413 && error.fileName
      ? t("admin.gallery.error.tooLarge", { name: error.fileName, size: formatMegabytes(maxBytes) })
      : error.message;
  return withUpload(call, { ...options, describe }, async (upload) => {
    const file = upload.files[0];
    if (!file) throw new AdminRefusal(400, t("admin.gallery.error.noFile"));
    const name = file.originalName;
    // Refused by what it was recognised as on arrival, before any domain sees it.
    const type = file.recognised;
    if (!isImageType(type)) throw new AdminRefusal(415, t("admin.gallery.error.notImage", { name }));
    try {
      const watermark = watermarkText(await requestSettings(call.context));
      const picture = { originalName: name, type, storage: call.runtime.storage, watermark };
      return await store(file, upload.fields, picture);
    } catch (error) {
      throw imageRefusal(error, t, name);
    }
  });
}

/**
 * A received file the image pipeline refused (not a picture, unreadable, too many pixels), named by its file name;
 * anything else is passed on as it is (a full disk is answered by `adminAction`, a fault by the error handler).
 */
function imageRefusal(error: unknown, t: AdminTranslate, name: string): unknown {
  if (!(error instanceof ImageError)) return error;
  const key =
    error.code === "too_large"
      ? "admin.gallery.error.tooManyPixels"
      : error.code === "unreadable"
        ? "admin.gallery.error.unreadable"
        : "admin.gallery.error.notImage";
  return new AdminRefusal(error.code === "too_large" ? 413 : 415, t(key, { name }));
}
