import { sendWithProgress } from "#app/components/admin/upload-progress.tsx";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import { fileNameWords } from "#app/lib/file-name-words.ts";

export type UploadedPostImage = { id: string; image: ImageDisplay };

/**
 * Sends one picture to /admin/uploads/posts (the site's image pipeline) and reports progress; resolves with the
 * stored image, or the server's message (or null when the connection failed) when it was refused.
 */
export async function uploadPostImage(
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ ok: true; image: UploadedPostImage } | { ok: false; message: string | null }> {
  const form = new FormData();
  form.set("file", file);
  const end = await sendWithProgress("/admin/uploads/posts", form, onProgress).done;
  if (end.kind !== "answered") return { ok: false, message: null };
  const body = end.body as { ok?: boolean; message?: string; id?: string; image?: ImageDisplay } | null;
  if (end.status === 200 && body?.ok && body.id && body.image)
    return { ok: true, image: { id: body.id, image: body.image } };
  return { ok: false, message: body?.message ?? null };
}

/**
 * A first alt text from a file's name ("03-lake-at_dawn.jpg" → "lake at dawn": no numbering, as a picture's
 * title), for the admin to improve; without the brackets and backslashes that would end Markdown's `![alt]`.
 */
export function altFromFileName(name: string): string {
  return fileNameWords(name)
    .replace(/[[\]()\\]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The Markdown for a picture at the caret: on its own line, so it renders as a block. */
export function pictureMarkdown(
  text: string,
  caret: number,
  alt: string,
  imageId: string,
): { text: string; caret: number } {
  const at = Math.max(0, Math.min(caret, text.length));
  const before = text.slice(0, at);
  const after = text.slice(at);
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const trail = after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  const inserted = `${lead}![${alt}](image:${imageId})${trail}`;
  return { text: before + inserted + after, caret: at + inserted.length };
}
