import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import {
  describeAccess,
  readableBy,
  resolveAccess,
  storedAccess,
  writeItemGroups,
} from "#app/domains/access/access.server.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import {
  copyFilesTo,
  copyVariants,
  holdImageAsRead,
  MEMBER_FOLDER,
  newMemberFolder,
  placedFileKey,
} from "#app/domains/media/member-files.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { fieldErrorsOf } from "#app/lib/field-errors.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { VIDEO_FILE_PREFIX } from "./videos.server.ts";
import { videoAccessSchema } from "./videos-schema.ts";

/*
 * Who may see a video (issue 21), and where its files are: a video for everyone has its uploaded file at
 * `public/videos/<uuid>.<ext>` and its poster's sizes at `public/images/<imageId>/`; a restricted one has both in a
 * member folder of its own (`videos.private_folder`, the poster's image row naming the same folder), served only
 * to a reader who may see the video (`mayReadVideoFolder`). An embedded video has no file here: only its poster
 * moves, and its folder is kept ready for a poster given later.
 */

const ACCESS_ERRORS = { needed: "admin.videos.error.groupsNeeded", unknown: "admin.videos.error.groups" };

export type VideoAccessResult =
  | { ok: true; target: string }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> }
  | { ok: false; reason: "not-found" }
  /** Its poster is still being made, or the video or its poster changed while the files were copied. */
  | { ok: false; reason: "busy" };

async function readVideo(db: Kysely<Database>, id: string) {
  return db
    .selectFrom("videos as v")
    .leftJoin("images as i", "i.id", "v.poster_image_id")
    .select([
      "v.id",
      "v.title",
      "v.file_key",
      "v.private_folder",
      "v.poster_image_id",
      "i.variants as poster_variants",
      "i.ready as poster_ready",
    ])
    .where("v.id", "=", id)
    .executeTakeFirst();
}

/**
 * Sets who may see video `id`. Moving between public and restricted copies the file and the poster's sizes to their
 * new names first, then records them with the visibility and the audit entry in one transaction (only if the video's
 * file, folder and poster did not change meanwhile), then removes the old names: their addresses stop answering.
 */
export async function setVideoAccess(
  db: Kysely<Database>,
  storage: FileStorage,
  actor: AuditActor,
  id: string,
  fields: Record<string, unknown>,
): Promise<VideoAccessResult> {
  const parsed = videoAccessSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, reason: "invalid", fieldErrors: fieldErrorsOf(parsed.error) };
  const row = await readVideo(db, id);
  if (!row) return { ok: false, reason: "not-found" };
  const restricted = parsed.data.visibility !== "everyone";
  const moves = restricted !== (row.private_folder !== null);
  if (moves && row.poster_image_id !== null && !toBoolean(row.poster_ready ?? false)) {
    return { ok: false, reason: "busy" };
  }
  const folder = restricted ? (row.private_folder ?? newMemberFolder()) : null;
  const posterVariants = row.poster_variants === null ? [] : parseVariants(row.poster_variants);
  const file =
    moves && row.file_key !== null
      ? await copyFilesTo(storage, [row.file_key], (key) => placedFileKey(key, VIDEO_FILE_PREFIX, folder))
      : { keys: row.file_key === null ? [] : [row.file_key], old: [], copied: [] };
  let poster: { variants: typeof posterVariants; old: string[]; copied: string[] };
  try {
    poster =
      moves && row.poster_image_id !== null
        ? await copyVariants(storage, posterVariants, row.poster_image_id, folder)
        : { variants: posterVariants, old: [], copied: [] };
  } catch (error) {
    await storage.remove(file.copied).catch(() => {});
    throw error;
  }
  const copied = [...file.copied, ...poster.copied];
  let outcome: VideoAccessResult;
  try {
    outcome = await db.transaction().execute(async (trx) => {
      // The video still as read, and held for the rest of the transaction (as setPictureAccess holds its image):
      // a second change since (another tab, a new poster) makes the admin try again, so that the files are always
      // where the rows say.
      const held = await trx
        .updateTable("videos")
        .set((eb) => ({ private_folder: eb.ref("private_folder") }))
        .where("id", "=", id)
        .where("private_folder", row.private_folder === null ? "is" : "=", row.private_folder)
        .where("file_key", row.file_key === null ? "is" : "=", row.file_key)
        .where("poster_image_id", row.poster_image_id === null ? "is" : "=", row.poster_image_id)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return { ok: false, reason: "busy" } as const;
      if (row.poster_image_id !== null && row.poster_variants !== null) {
        const posterHeld = await holdImageAsRead(trx, row.poster_image_id, { variants: row.poster_variants });
        if (!posterHeld) return { ok: false, reason: "busy" } as const;
      }
      const video = await trx.selectFrom("videos").select("visibility").where("id", "=", id).executeTakeFirstOrThrow();
      const stored = await storedAccess(trx, "video", id, video.visibility);
      const access = await resolveAccess(trx, parsed.data, stored, ACCESS_ERRORS);
      if (!access.ok) return { ok: false, reason: "invalid", fieldErrors: access.fieldErrors } as const;
      await trx
        .updateTable("videos")
        .set({
          visibility: access.access.visibility,
          private_folder: folder,
          file_key: file.keys[0] ?? null,
          updated_at: new Date(),
        })
        .where("id", "=", id)
        .execute();
      if (moves && row.poster_image_id !== null) {
        await trx
          .updateTable("images")
          .set({ variants: JSON.stringify(poster.variants), private_folder: folder })
          .where("id", "=", row.poster_image_id)
          .execute();
      }
      await writeItemGroups(trx, "video", id, access.access.groupIds);
      await recordAudit(trx, actor, {
        action: "videos.access",
        target: row.title,
        oldValue: await describeAccess(trx, stored),
        newValue: await describeAccess(trx, access.access),
      });
      return { ok: true, target: row.title } as const;
    });
  } catch (error) {
    await storage.remove(copied).catch(() => {});
    throw error;
  }
  try {
    await storage.remove(outcome.ok ? [...file.old, ...poster.old] : copied);
  } catch (error) {
    // The rows already say where the files are; what is left at the old names goes with the storage sweeps.
    getLogger().warn({ err: error, videoId: id }, "Could not remove a video's files from their old names");
  }
  return outcome;
}

/**
 * Whether `reader` may see the video whose files are in member folder `folder`: an admin any, anyone else an
 * active video of it that the one rule lets them see.
 */
export async function mayReadVideoFolder(db: Kysely<Database>, reader: Reader, folder: string): Promise<boolean> {
  if (!MEMBER_FOLDER.test(folder)) return false;
  let query = db.selectFrom("videos as v").select("v.id").where("v.private_folder", "=", folder).limit(1);
  if (reader.kind !== "admin") query = query.where("v.active", "=", true).where(readableBy(reader, "video", "v"));
  return (await query.executeTakeFirst()) !== undefined;
}
