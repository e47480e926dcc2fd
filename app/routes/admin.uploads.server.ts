import { ImageError } from "#app/domains/media/image-encode.server.ts";
import { formatMegabytes, storageRefusal, UploadError } from "#app/domains/media/upload.server.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";

/** What a picture upload answers when it is refused: the HTTP status and the message in the admin's language. */
export type UploadRefusal = { status: number; message: string };

/**
 * A picture that could not be received (too big, a broken body, a full or read-only disk) as the answer the
 * gallery's and the posts' uploads give. Anything else is a fault and is thrown on.
 */
export function receiveRefusal(error: unknown, t: AdminTranslate, maxBytes: number): UploadRefusal {
  const full = storageRefusal(error);
  if (full) return { status: full.status, message: t(full.messageKey) };
  if (!(error instanceof UploadError)) throw error;
  const message =
    error.status === 413 && error.fileName
      ? t("admin.gallery.error.tooLarge", { name: error.fileName, size: formatMegabytes(maxBytes) })
      : error.message;
  return { status: error.status, message };
}

/**
 * A received file the image pipeline refused (not a picture, unreadable, too many pixels) or the disk would not
 * take, named by its file name. Anything else is a fault and is thrown on.
 */
export function imageRefusal(error: unknown, t: AdminTranslate, name: string): UploadRefusal {
  const full = storageRefusal(error);
  if (full) return { status: full.status, message: t(full.messageKey) };
  if (!(error instanceof ImageError)) throw error;
  const key =
    error.code === "too_large"
      ? "admin.gallery.error.tooManyPixels"
      : error.code === "unreadable"
        ? "admin.gallery.error.unreadable"
        : "admin.gallery.error.notImage";
  return { status: error.code === "too_large" ? 413 : 415, message: t(key, { name }) };
}
