import { randomUUID } from "node:crypto";
import fs from "node:fs";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import type { ContentResult } from "#app/domains/content/content.server.ts";
import { ImageError } from "#app/domains/media/image-encode.server.ts";
import { type PreparedImage, prepareImage, storeImage } from "#app/domains/media/image-pipeline.server.ts";
import { deleteImage, insertImageRow } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import {
  isImageType,
  isVideoType,
  MEDIA_CONTENT_TYPES,
  type ReceivedUpload,
  type UploadedFile,
} from "#app/domains/media/upload.server.ts";
import { rowIdSchema } from "#app/lib/text-schema.ts";
import { removeVideoPoster, setVideoPoster, VIDEO_FILE_PREFIX, videosService } from "./videos.server.ts";

/** What an upload asks for: a new video, a new poster for the video `id`, or that video without its poster. */
export const uploadCommandSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create") }),
  z.object({ intent: z.literal("poster"), id: rowIdSchema }),
  z.object({ intent: z.literal("removePoster"), id: rowIdSchema }),
]);

/** The text fields the upload form sends besides its files. */
export const VIDEO_UPLOAD_FIELDS = ["intent", "id", "title", "title_de", "description", "description_de", "active"];

export type UploadRefusal = "no-file" | "not-video" | "not-image" | "video-too-large" | "poster-too-large";
export type UploadOutcome =
  | ContentResult
  | { ok: false; reason: UploadRefusal }
  | { ok: false; reason: "no-poster"; target: string };

export type UploadOptions = { videoMaxBytes: number; posterMaxBytes: number; storage: FileStorage };

function fileIn(upload: ReceivedUpload, field: string): UploadedFile | undefined {
  return upload.files.find((file) => file.fieldName === field);
}

/** The picture type a received poster was recognised as (checkPoster has refused anything else). */
const posterType = (poster: UploadedFile) => (isImageType(poster.recognised) ? poster.recognised : undefined);

/** A poster is checked by its size and what its first bytes were recognised as, before anything is stored. */
function checkPoster(poster: UploadedFile, options: UploadOptions): UploadRefusal | null {
  if (poster.size > options.posterMaxBytes) return "poster-too-large";
  return isImageType(poster.recognised) ? null : "not-image";
}

/** The poster's new image id, or null when the image pipeline refused it (damaged, too many pixels). */
async function storePoster(db: Kysely<Database>, poster: UploadedFile, storage: FileStorage): Promise<string | null> {
  try {
    return await storeImage(db, poster.path, { storage, type: posterType(poster) });
  } catch (error) {
    if (error instanceof ImageError) return null;
    throw error;
  }
}

/**
 * A new video from an upload: the texts, an MP4/WebM file (recognised by its content, never by its name) and
 * an optional poster image. Anything refused leaves no row and no file behind; the caller removes the temp files.
 */
export async function createVideoFromUpload(
  db: Kysely<Database>,
  actor: AuditActor,
  upload: ReceivedUpload,
  options: UploadOptions,
): Promise<UploadOutcome> {
  const checked = videosService.validate({ ...upload.fields, embed_url: "" });
  if (!checked.ok) return { ok: false, reason: "invalid", fieldErrors: checked.fieldErrors };
  const video = fileIn(upload, "video");
  if (!video) return { ok: false, reason: "no-file" };
  if (video.size > options.videoMaxBytes) return { ok: false, reason: "video-too-large" };
  const type = video.recognised;
  if (!isVideoType(type)) return { ok: false, reason: "not-video" };
  const poster = fileIn(upload, "poster");
  const posterRefusal = poster ? checkPoster(poster, options) : null;
  if (posterRefusal) return { ok: false, reason: posterRefusal };

  const { storage } = options;
  // The poster's files are made before anything is written to the database (no transaction waits for sharp);
  // prepareImage leaves no file behind when it refuses the poster.
  let preparedPoster: PreparedImage | null = null;
  try {
    preparedPoster = poster ? await prepareImage(poster.path, { storage, type: posterType(poster) }) : null;
  } catch (error) {
    if (error instanceof ImageError) return { ok: false, reason: "not-image" };
    throw error;
  }
  const key = `${VIDEO_FILE_PREFIX}${randomUUID()}.${type}`;
  try {
    await storage.save(key, fs.createReadStream(video.path));
    // Files first, then the poster's and the video's rows in one transaction: a crash leaves no poster row
    // without its video, only files, which the start-up sweeps remove.
    const result = await videosService.create(
      db,
      actor,
      upload.fields,
      { file_key: key, file_type: MEDIA_CONTENT_TYPES[type] },
      async (trx) => (preparedPoster ? { poster_image_id: await insertImageRow(trx, preparedPoster) } : {}),
    );
    if (!result.ok) throw new Error(`The checked video was refused: ${JSON.stringify(result)}`);
    return result;
  } catch (error) {
    await storage.remove(key).catch(() => {});
    await preparedPoster?.discard();
    throw error;
  }
}

/** A new poster image for an existing video (uploaded or embedded); the old one is deleted. */
export async function replaceVideoPoster(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  upload: ReceivedUpload,
  options: UploadOptions,
): Promise<UploadOutcome> {
  if (!(await videosService.find(db, id))) return { ok: false, reason: "not-found" };
  const poster = fileIn(upload, "poster");
  if (!poster) return { ok: false, reason: "no-file" };
  const refusal = checkPoster(poster, options);
  if (refusal) return { ok: false, reason: refusal };
  const imageId = await storePoster(db, poster, options.storage);
  if (!imageId) return { ok: false, reason: "not-image" };
  const result = await setVideoPoster(db, actor, id, imageId, options.storage);
  // The video was deleted in the meantime: its new poster has nothing to belong to.
  if (!result.ok) await deleteImage(db, imageId, options.storage);
  return result;
}

/** The upload route's command run on the received upload (`removePoster` sends no file). */
export function runUploadCommand(
  db: Kysely<Database>,
  actor: AuditActor,
  command: z.infer<typeof uploadCommandSchema>,
  upload: ReceivedUpload,
  options: UploadOptions,
): Promise<UploadOutcome> {
  switch (command.intent) {
    case "create":
      return createVideoFromUpload(db, actor, upload, options);
    case "poster":
      return replaceVideoPoster(db, actor, command.id, upload, options);
    case "removePoster":
      return removeVideoPoster(db, actor, command.id, options.storage);
  }
}
