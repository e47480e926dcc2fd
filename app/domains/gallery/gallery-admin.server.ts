import type { Kysely, Transaction } from "kysely";
import { reorderRows } from "#app/db/ordering.server.ts";
import type { Database } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { groupsOfItems, writeItemGroups } from "#app/domains/access/access.server.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { describeReorder } from "#app/domains/audit/audit-moves.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import { deleteImageRow, removeImageFiles } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { indexItems } from "#app/domains/search-index/search-index.server.ts";
import type { AdminGalleryItem } from "./gallery.ts";
import { columns } from "./gallery-public.server.ts";
import type { GalleryBulkAction, GalleryTexts } from "./gallery-schema.ts";

/*
 * The owner's side of the gallery: the admin list and every write, each one transaction with its audit entry.
 * A new picture (an upload) is added by gallery-upload.server.ts.
 */

export class GalleryNotFoundError extends Error {
  override name = "GalleryNotFoundError";
}

/** Every picture, published or not, in display order: the admin list. */
export async function listGalleryForAdmin(db: Kysely<Database>): Promise<AdminGalleryItem[]> {
  const rows = await db
    .selectFrom("gallery_images as g")
    .innerJoin("images as i", "i.id", "g.image_id")
    .select([...columns, "g.published", "g.visibility"])
    .orderBy("g.sort_order")
    .orderBy("g.id")
    .execute();
  const grouped = rows.filter((row) => row.visibility === "groups").map((row) => row.id);
  const groups = await groupsOfItems(db, "picture", grouped);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    titleDe: row.title_de,
    description: row.description,
    descriptionDe: row.description_de,
    category: row.category,
    categoryDe: row.category_de,
    alt: row.alt,
    altDe: row.alt_de,
    published: toBoolean(row.published),
    visibility: row.visibility,
    groupIds: (groups.get(row.id) ?? []).map((group) => group.id).sort(),
    width: row.width,
    height: row.height,
    image: imageForDisplay(row),
  }));
}

/** The picture's row, read inside the write that changes it; a picture deleted meanwhile is refused. */
async function existingPicture(trx: Transaction<Database>, id: string) {
  const row = await trx.selectFrom("gallery_images").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new GalleryNotFoundError("That picture no longer exists.");
  return row;
}

/** The name the audit log and messages use for a picture. */
export function nameOf(row: { title: string; id: string }): string {
  return row.title.trim() || row.id;
}

export async function updateGalleryTexts(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  texts: GalleryTexts,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await existingPicture(trx, id);
    await trx
      .updateTable("gallery_images")
      .set({ ...texts, updated_at: new Date() })
      .where("id", "=", id)
      .execute();
    await indexItems(trx, "picture", [id]);
    const pick = (value: typeof texts) => JSON.stringify(value);
    await recordAudit(trx, actor, {
      action: "gallery.update",
      target: nameOf({ title: texts.title, id }),
      oldValue: pick({
        title: row.title,
        title_de: row.title_de,
        description: row.description,
        description_de: row.description_de,
        category: row.category,
        category_de: row.category_de,
        alt: row.alt,
        alt_de: row.alt_de,
      }),
      newValue: pick(texts),
    });
  });
}

export async function setGalleryPublished(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  published: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await existingPicture(trx, id);
    await trx.updateTable("gallery_images").set({ published, updated_at: new Date() }).where("id", "=", id).execute();
    await recordAudit(trx, actor, {
      action: published ? "gallery.publish" : "gallery.unpublish",
      target: nameOf(row),
      oldValue: String(toBoolean(row.published)),
      newValue: String(published),
    });
  });
}

/** Deletes the picture and its image row in one transaction (with the audit record), then its files. */
export async function deleteGalleryEntry(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  storage: FileStorage,
): Promise<string> {
  const { keys, name } = await db.transaction().execute(async (trx) => {
    const row = await existingPicture(trx, id);
    const keys = await deletePictureRow(trx, actor, row);
    return { keys, name: nameOf(row) };
  });
  await removeImageFiles(keys, storage);
  return name;
}

/** Deletes a picture's row and its image row (with the audit record); returns the image's files to remove. */
async function deletePictureRow(
  trx: Transaction<Database>,
  actor: AuditActor,
  row: { id: string; title: string; description: string; category: string; image_id: string },
) {
  await trx.deleteFrom("gallery_images").where("id", "=", row.id).execute();
  // content_groups names its content by kind and id, without a foreign key: its rows go with the picture.
  await writeItemGroups(trx, "picture", row.id, []);
  await indexItems(trx, "picture", [row.id]);
  // Another use of the same image (none today) would keep it.
  const others = await trx
    .selectFrom("videos")
    .select("id")
    .where("poster_image_id", "=", row.image_id)
    .executeTakeFirst();
  const keys = others ? null : await deleteImageRow(trx, row.image_id);
  await recordAudit(trx, actor, {
    action: "gallery.delete",
    target: nameOf(row),
    oldValue: JSON.stringify({ title: row.title, description: row.description, category: row.category }),
  });
  return keys;
}

/** Every category in use, English with the German label the first picture in display order gives it. */
export async function listGalleryCategories(db: Kysely<Database>): Promise<{ en: string; de: string }[]> {
  const rows = await db
    .selectFrom("gallery_images")
    .select(["category", "category_de"])
    .where("category", "!=", "")
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
  const labels = new Map<string, string>();
  for (const row of rows) {
    if (!labels.has(row.category) || labels.get(row.category) === "") labels.set(row.category, row.category_de);
  }
  return [...labels]
    .map(([en, de]) => ({ en, de }))
    .sort((a, b) => a.en.localeCompare(b.en, "en", { sensitivity: "base" }));
}

/**
 * One action on several pictures, all or nothing in one transaction: publish, hide, set the category (English;
 * the German label is the one the category already has elsewhere, else none) or delete. One audit entry per
 * picture, naming it. A picture that no longer exists refuses the whole action. Returns the pictures' names.
 */
export async function applyGalleryBulkAction(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { action: GalleryBulkAction; ids: string[]; category?: string },
  storage: FileStorage,
): Promise<string[]> {
  const ids = [...new Set(input.ids)].sort();
  const { names, keys } = await db.transaction().execute(async (trx) => {
    const names: string[] = [];
    const keys: NonNullable<Awaited<ReturnType<typeof deleteImageRow>>>[] = [];
    const category = (input.category ?? "").trim();
    const categoryDe =
      input.action === "category" && category !== ""
        ? ((
            await trx
              .selectFrom("gallery_images")
              .select("category_de")
              .where("category", "=", category)
              .where("category_de", "!=", "")
              .orderBy("sort_order")
              .executeTakeFirst()
          )?.category_de ?? "")
        : "";
    const now = new Date();
    // Rows in id order (as reorderRows does): two bulk actions at once wait for each other instead of deadlocking.
    for (const id of ids) {
      const row = await existingPicture(trx, id);
      names.push(nameOf(row));
      if (input.action === "delete") {
        const removed = await deletePictureRow(trx, actor, row);
        if (removed) keys.push(removed);
      } else if (input.action === "category") {
        await trx
          .updateTable("gallery_images")
          .set({ category, category_de: categoryDe, updated_at: now })
          .where("id", "=", id)
          .execute();
        await indexItems(trx, "picture", [id]);
        await recordAudit(trx, actor, {
          action: "gallery.update",
          target: nameOf(row),
          oldValue: JSON.stringify({ category: row.category, category_de: row.category_de }),
          newValue: JSON.stringify({ category, category_de: categoryDe }),
        });
      } else {
        const published = input.action === "publish";
        await trx.updateTable("gallery_images").set({ published, updated_at: now }).where("id", "=", id).execute();
        await recordAudit(trx, actor, {
          action: published ? "gallery.publish" : "gallery.unpublish",
          target: nameOf(row),
          oldValue: String(toBoolean(row.published)),
          newValue: String(published),
        });
      }
    }
    return { names, keys };
  });
  for (const removed of keys) await removeImageFiles(removed, storage);
  return names;
}

export async function reorderGallery(db: Kysely<Database>, actor: AuditActor, ids: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("gallery_images")
      .select(["id", "title"])
      .orderBy("sort_order")
      .orderBy("id")
      .execute();
    await reorderRows(trx, "gallery_images", ids);
    // Named by the moved picture's title at the time ("moved “Alpine lake” up"), never by ids.
    const titles = new Map(before.map((row) => [row.id, row.title.trim()]));
    const move = describeReorder(
      before.map((row) => row.id),
      ids,
      (id) => titles.get(id) ?? "",
    );
    await recordAudit(trx, actor, { action: "gallery.reorder", ...move });
  });
}
