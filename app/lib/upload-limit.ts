/**
 * Form posts and API bodies are small; anything larger is refused before it is read. Kept here, not in
 * forms.server.ts, because upload routes' `handle` (below) also reaches the browser's route manifest.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The configured upload sizes a route's limit is made of (from the environment, see env.server.ts). */
export type UploadSizes = { uploadMaxBytes: number; videoUploadMaxBytes: number };

/** The most bytes of each file one request to an upload route may carry, in the order the form sends them. */
export type UploadFileLimits = (sizes: UploadSizes) => number[];

/**
 * What an upload route declares as its `handle`: the route that streams the files owns their limit. The HTTP edge
 * (server/app.ts) reads it from the route table to let the body through, and the route's action reads the same
 * declaration to stream each file within it; so a new upload route cannot be forgotten by a list kept elsewhere.
 */
export type UploadHandle = { upload: { fileLimits: UploadFileLimits } };

export function uploadHandle(fileLimits: UploadFileLimits): UploadHandle {
  return { upload: { fileLimits } };
}

/** The declaration of a route module's `handle`, if it is an upload route. */
export function uploadLimitsOf(handle: unknown): UploadFileLimits | undefined {
  if (typeof handle !== "object" || handle === null || !("upload" in handle)) return undefined;
  const upload = (handle as Partial<UploadHandle>).upload;
  return typeof upload?.fileLimits === "function" ? upload.fileLimits : undefined;
}

/** The most a whole request to the route may carry: each file at its limit, plus the form's small fields. */
export function uploadBodyLimit(fileLimits: UploadFileLimits, sizes: UploadSizes): number {
  return fileLimits(sizes).reduce((sum, bytes) => sum + bytes, MAX_BODY_BYTES);
}

/** What `receiveUpload` is given: the largest file the route takes, and how many files. */
export function receiveLimits(
  fileLimits: UploadFileLimits,
  sizes: UploadSizes,
): { maxBytes: number; maxFiles: number } {
  const limits = fileLimits(sizes);
  return { maxBytes: Math.max(...limits), maxFiles: limits.length };
}
