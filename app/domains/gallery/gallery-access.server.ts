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
  copyVariants,
  holdImageAsRead,
  MEMBER_FOLDER,
  newMemberFolder,
} from "#app/domains/media/member-files.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { fieldErrorsOf } from "#app/lib/field-errors.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { nameOf } from "./gallery-admin.server.ts";
import { galleryAccessSchema } from "./gallery-schema.ts";

/*
 * Who may see a gallery picture (issue 21), and where its files are: a picture for everyone has public names
 * (`public/images/<imageId>/…`, cacheable by anyone for a year); a restricted one has its files in a member folder
 * of its own (member-files.server.ts), answered only to a reader who may see it (`mayReadMemberFolder`).
 */

const ACCESS_ERRORS = { needed: "admin.gallery.error.groupsNeeded", unknown: "admin.gallery.error.groups" };

export type PictureAccessResult =
  | { ok: true }
  | { ok: false; reason: "invalid"; fieldErrors: Record<string, string> }
  | { ok: false; reason: "not-found" }
  /** Its sizes are still being made, or were redrawn while its files were copied: try again in a moment. */
  | { ok: false; reason: "busy" };

/**
 * Sets who may see picture `id`. Moving between public and restricted copies the files to their new names first,
 * then records them with the visibility and the audit entry in one transaction (only if the image's files did not
 * change meanwhile), then removes the old names: their addresses stop answering (a CDN may still hold a copy).
 */
export async function setPictureAccess(
  db: Kysely<Database>,
  storage: FileStorage,
  actor: AuditActor,
  id: string,
  fields: Record<string, unknown>,
): Promise<PictureAccessResult> {
  const parsed = galleryAccessSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, reason: "invalid", fieldErrors: fieldErrorsOf(parsed.error) };
  const row = await db
    .selectFrom("gallery_images as g")
    .innerJoin("images as i", "i.id", "g.image_id")
    .select(["g.id", "g.title", "i.id as image_id", "i.variants", "i.private_folder", "i.ready"])
    .where("g.id", "=", id)
    .executeTakeFirst();
  if (!row) return { ok: false, reason: "not-found" };
  const restricted = parsed.data.visibility !== "everyone";
  const moves = restricted !== (row.private_folder !== null);
  if (moves && !toBoolean(row.ready)) return { ok: false, reason: "busy" };
  const folder = restricted ? (row.private_folder ?? newMemberFolder()) : null;
  const placed = moves
    ? await copyVariants(storage, parseVariants(row.variants), row.image_id, folder)
    : { variants: parseVariants(row.variants), old: [], copied: [] };
  let outcome: PictureAccessResult;
  try {
    outcome = await db.transaction().execute(async (trx) => {
      // The image still as read, and held for the rest of the transaction: another change of this picture's
      // readers or files since makes the admin try again.
      if (!(await holdImageAsRead(trx, row.image_id, row))) return { ok: false, reason: "busy" } as const;
      const picture = await trx
        .selectFrom("gallery_images")
        .select("visibility")
        .where("id", "=", id)
        .executeTakeFirst();
      if (!picture) return { ok: false, reason: "not-found" } as const;
      const stored = await storedAccess(trx, "picture", id, picture.visibility);
      const access = await resolveAccess(trx, parsed.data, stored, ACCESS_ERRORS);
      if (!access.ok) return { ok: false, reason: "invalid", fieldErrors: access.fieldErrors } as const;
      if (moves) {
        await trx
          .updateTable("images")
          .set({ variants: JSON.stringify(placed.variants), private_folder: folder })
          .where("id", "=", row.image_id)
          .execute();
      }
      await trx
        .updateTable("gallery_images")
        .set({ visibility: access.access.visibility, updated_at: new Date() })
        .where("id", "=", id)
        .execute();
      await writeItemGroups(trx, "picture", id, access.access.groupIds);
      await recordAudit(trx, actor, {
        action: "gallery.access",
        target: nameOf(row),
        oldValue: await describeAccess(trx, stored),
        newValue: await describeAccess(trx, access.access),
      });
      return { ok: true } as const;
    });
  } catch (error) {
    await storage.remove(placed.copied).catch(() => {});
    throw error;
  }
  try {
    await storage.remove(outcome.ok ? placed.old : placed.copied);
  } catch (error) {
    // The row already says where the files are; what is left at the old names goes with the storage sweep (every
    // 6 hours), as unreferenced files do.
    getLogger().warn({ err: error, pictureId: id }, "Could not remove a picture's files from their old names");
  }
  return outcome;
}

/**
 * Whether `reader` may see a picture whose files are in member folder `folder`: an admin any, anyone else a
 * published picture of it that the one rule lets them see, itself or through an album they may see (a picture
 * shown through an album is for whoever may see the album: albums-public.server.ts).
 */
export async function mayReadMemberFolder(db: Kysely<Database>, reader: Reader, folder: string): Promise<boolean> {
  if (!MEMBER_FOLDER.test(folder)) return false;
  const base = db.selectFrom("images as i").select("i.id").where("i.private_folder", "=", folder).limit(1);
  const found =
    reader.kind === "admin"
      ? await base.executeTakeFirst()
      : await base
          .innerJoin("gallery_images as g", "g.image_id", "i.id")
          .where("g.published", "=", true)
          .where((eb) =>
            eb.or([
              readableBy(reader, "picture", "g"),
              eb.exists(
                eb
                  .selectFrom("album_pictures as ap")
                  .innerJoin("albums as a", "a.id", "ap.album_id")
                  .select("ap.album_id")
                  .whereRef("ap.picture_id", "=", "g.id")
                  .where(readableBy(reader, "album", "a")),
              ),
            ]),
          )
          .executeTakeFirst();
  return found !== undefined;
}
