import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { nextSortOrder, reorderRows } from "#app/db/ordering.server.ts";
import type { Database, GalleryImagesTable, ImagesTable } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import { type AuditActor, recordAudit } from "#app/domains/audit/audit.server.ts";
import { describeReorder } from "#app/domains/audit/audit-moves.ts";
import { localized } from "#app/domains/content/content.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import { finishImageInBackground } from "#app/domains/media/image-finishing.server.ts";
import { prepareImage } from "#app/domains/media/image-pipeline.server.ts";
import { deleteImageRow, insertImageRow, removeImageFiles } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { markdownToText, renderMarkdown } from "#app/lib/markdown.server.ts";
import { removeControlCharacters } from "#app/lib/text-schema.ts";
import {
  type AdminGalleryItem,
  GALLERY_PAGE_SIZE,
  type GalleryCategory,
  type GalleryItem,
  titleFromFileName,
} from "./gallery.ts";
import type { GalleryBulkAction, GalleryTexts } from "./gallery-schemas.ts";

export class GalleryNotFoundError extends Error {
  override name = "GalleryNotFoundError";
}

type JoinedRow = Pick<
  GalleryImagesTable,
  "id" | "title" | "title_de" | "description" | "description_de" | "category" | "category_de"
> & { alt: string; alt_de: string } & Pick<ImagesTable, "width" | "height" | "placeholder" | "variants">;

function publishedQuery(db: Kysely<Database>) {
  return (
    db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .where("g.published", "=", true)
      // Visitors see a picture once all its sizes exist.
      .where("i.ready", "=", true)
  );
}

const columns = [
  "g.id",
  "g.title",
  "g.title_de",
  "g.description",
  "g.description_de",
  "g.category",
  "g.category_de",
  "g.alt",
  "g.alt_de",
  "g.sort_order",
  "i.width",
  "i.height",
  "i.placeholder",
  "i.variants",
] as const;

/**
 * A picture's text alternative in one language: its alt text (German falling back to English, like every
 * text), else its title. Empty only when the picture has neither; the page then names it by its place.
 */
export function altTextOf(
  row: { alt: string; alt_de: string; title: string; title_de: string },
  lang: Language,
): string {
  return (localized(row.alt, row.alt_de, lang).trim() || localized(row.title, row.title_de, lang)).trim();
}

function toItem(row: JoinedRow, lang: Language): GalleryItem {
  // A description is Markdown, as every longer text the owner writes: rendered here, on the server, so a
  // visitor's browser gets HTML and no renderer.
  const description = localized(row.description, row.description_de, lang).trim();
  return {
    id: row.id,
    title: localized(row.title, row.title_de, lang),
    description: description ? markdownToText(description) : "",
    descriptionHtml: description ? renderMarkdown(description) : "",
    category: localized(row.category, row.category_de, lang),
    alt: altTextOf(row, lang),
    image: imageForDisplay(row),
  };
}

export type GalleryPage = {
  items: GalleryItem[];
  /** 1-based. */
  page: number;
  pageCount: number;
  total: number;
  categories: GalleryCategory[];
  /** The active filter (an English category), or null for all. */
  category: string | null;
  /** The picture a shared `?image=` link opens, when it is published (it is on this page). */
  openId: string | null;
};

/**
 * The published pictures' ids in display order, all or of one category: read along the index
 * `(published, sort_order, id)` or `(published, category, sort_order, id)`, never sorting rows. Exported so
 * that a test can check the plan of what the service runs.
 */
export function publishedOrderQuery(db: Kysely<Database>, category: string | null) {
  const query = publishedQuery(db)
    .select(["g.id", "g.sort_order", "g.category", "g.category_de"])
    .orderBy("g.sort_order")
    .orderBy("g.id");
  return category === null ? query : query.where("g.category", "=", category);
}

/**
 * One page's rows: the pictures from `first` on in display order (keyset paging: a range of the display or
 * category index, however far into the gallery the page is; `publishedOrder` knows where each page starts).
 */
export function pageRowsQuery(db: Kysely<Database>, category: string | null, first: { sortOrder: number; id: string }) {
  const query = publishedQuery(db)
    .select(columns)
    .where((eb) => eb(eb.refTuple("g.sort_order", "g.id"), ">=", eb.tuple(first.sortOrder, first.id)))
    .orderBy("g.sort_order")
    .orderBy("g.id")
    .limit(GALLERY_PAGE_SIZE);
  return category === null ? query : query.where("g.category", "=", category);
}

/** The pictures published last, newest first (ties by id), read backwards along `(published, created_at, id)`. */
export function latestPublishedQuery(db: Kysely<Database>, limit: number) {
  return publishedQuery(db).select(columns).orderBy("g.created_at", "desc").orderBy("g.id", "desc").limit(limit);
}

type PublishedOrder = {
  ids: string[];
  /** The sort order of each picture in `ids`, at the same place. */
  sortOrders: number[];
  /** Each id's place in `ids`. */
  positions: Map<string, number>;
  /** The English category of each id ('' when none). */
  categoryOf: Map<string, string>;
  /** Every category (English key) with its German label as the first picture in display order has it. */
  labels: Map<string, { en: string; de: string }>;
};

/**
 * The order of the published pictures (all, or of one category), read once per database change version:
 * counting, paging and finding a shared picture's page then cost nothing per request, whatever the size of
 * the gallery.
 */
function publishedOrder(db: Kysely<Database>, category: string | null): Promise<PublishedOrder> {
  return cachedUntilChanged(db, `gallery:order:${category === null ? "*" : `=${category}`}`, async () => {
    const rows = await publishedOrderQuery(db, category).execute();
    const order: PublishedOrder = {
      ids: [],
      sortOrders: [],
      positions: new Map(),
      categoryOf: new Map(),
      labels: new Map(),
    };
    for (const row of rows) {
      order.positions.set(row.id, order.ids.length);
      order.ids.push(row.id);
      order.sortOrders.push(row.sort_order);
      order.categoryOf.set(row.id, row.category);
      if (row.category !== "" && !order.labels.has(row.category)) {
        order.labels.set(row.category, { en: row.category, de: row.category_de });
      }
    }
    return order;
  });
}

/**
 * One page of the published pictures in display order, optionally of one category, with the categories
 * in the visitor's language. A shared picture's page is chosen so that the picture is on it.
 */
export async function listPublishedGallery(
  db: Kysely<Database>,
  options: { lang: Language; category?: string | null; page?: number; imageId?: string | null },
): Promise<GalleryPage> {
  const { lang } = options;
  const all = await publishedOrder(db, null);
  const categories = [...all.labels]
    .map(([key, label]) => ({ key, label: localized(label.en, label.de, lang) }))
    .sort((a, b) => a.label.localeCompare(b.label, lang));

  let category = options.category && all.labels.has(options.category) ? options.category : null;
  let openId: string | null = null;
  let page = Math.max(1, Math.floor(options.page ?? 1));
  const sharedId = options.imageId ? options.imageId : null;
  if (sharedId !== null && all.positions.has(sharedId)) {
    openId = sharedId;
    // A picture outside the chosen category is shown among all pictures.
    if (category !== null && all.categoryOf.get(sharedId) !== category) category = null;
  }
  const order = category === null ? all : await publishedOrder(db, category);
  if (openId !== null && options.page === undefined) {
    page = Math.floor((order.positions.get(openId) ?? 0) / GALLERY_PAGE_SIZE) + 1;
  }

  const total = order.ids.length;
  const pageCount = Math.max(1, Math.ceil(total / GALLERY_PAGE_SIZE));
  page = Math.min(page, pageCount);
  const start = (page - 1) * GALLERY_PAGE_SIZE;
  const firstId = order.ids[start];
  const rows =
    firstId === undefined
      ? []
      : await pageRowsQuery(db, category, { sortOrder: order.sortOrders[start] ?? 0, id: firstId }).execute();
  const items = rows.map((row) => toItem(row, lang));
  if (openId !== null && !items.some((item) => item.id === openId)) openId = null;
  return { items, page, pageCount, total, categories, category, openId };
}

/** The pictures published last, newest first (the start page's highlights). */
export async function listLatestPublishedGallery(
  db: Kysely<Database>,
  options: { lang: Language; limit: number },
): Promise<GalleryItem[]> {
  const rows = await latestPublishedQuery(db, options.limit).execute();
  return rows.map((row) => toItem(row, options.lang));
}

/** Every picture, published or not, in display order: the admin list. */
export async function listAdminGallery(db: Kysely<Database>): Promise<AdminGalleryItem[]> {
  const rows = await db
    .selectFrom("gallery_images as g")
    .innerJoin("images as i", "i.id", "g.image_id")
    .select([...columns, "g.published"])
    .orderBy("g.sort_order")
    .orderBy("g.id")
    .execute();
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
function nameOf(row: { title: string; id: string }): string {
  return row.title.trim() || row.id;
}

/** Where a new picture goes: first or last in the gallery's order. */
export type GalleryPlacement = "top" | "bottom";

/**
 * The sort order of a new picture. At the top: before the first one, or right after `after` (the picture uploaded
 * just before it in the same batch, when it is still there), so that a batch keeps its order at the top.
 */
async function placeNewPicture(
  trx: Transaction<Database>,
  placement: GalleryPlacement,
  after: string | undefined,
): Promise<number> {
  if (placement === "bottom") return nextSortOrder(trx, "gallery_images");
  const previous = after
    ? await trx.selectFrom("gallery_images").select("sort_order").where("id", "=", after).executeTakeFirst()
    : undefined;
  if (previous) {
    const position = Number(previous.sort_order) + 1;
    await trx
      .updateTable("gallery_images")
      .set((eb) => ({ sort_order: eb("sort_order", "+", 1) }))
      .where("sort_order", ">=", position)
      .execute();
    return position;
  }
  const first = await trx
    .selectFrom("gallery_images")
    .select((eb) => eb.fn.min<number | null>("sort_order").as("first"))
    .executeTakeFirst();
  return first?.first === null || first?.first === undefined ? 0 : Number(first.first) - 1;
}

/**
 * Stores an uploaded image and adds it to the gallery, titled after its file name (English and German), hidden
 * unless `published`, at the end unless `placement` is "top"; records the upload.
 * Returns once the original is stored, the first size exists and the rows are written; the other sizes are
 * made right after in the background (one image at a time), and visitors see the picture once they exist.
 * If the gallery row cannot be added, the image's files are removed again.
 */
export async function createGalleryEntry(
  db: Kysely<Database>,
  actor: AuditActor,
  tempFilePath: string,
  options: {
    originalName: string;
    watermark: string;
    storage: FileStorage;
    /** Visible to visitors at once (default: hidden until the owner publishes it). */
    published?: boolean;
    placement?: GalleryPlacement;
    /** With placement "top": the picture to follow (the one uploaded before it in the same batch). */
    after?: string;
  },
): Promise<string> {
  // Files first (outside any transaction), then the image's and the picture's rows together: a crash in
  // between leaves only files, which the start-up sweep removes, never an image row without its picture.
  const prepared = await prepareImage(tempFilePath, {
    watermark: options.watermark,
    storage: options.storage,
    remainingSizes: "later",
  });
  const id = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      const now = new Date();
      const imageId = await insertImageRow(trx, prepared);
      const title = titleFromFileName(removeControlCharacters(options.originalName));
      await trx
        .insertInto("gallery_images")
        .values({
          id,
          image_id: imageId,
          title,
          // Empty, as every German text the owner has not written: the English title shows until then.
          title_de: "",
          description: "",
          description_de: "",
          category: "",
          category_de: "",
          alt: "",
          alt_de: "",
          sort_order: await placeNewPicture(trx, options.placement ?? "bottom", options.after),
          published: options.published ?? false,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await recordAudit(trx, actor, { action: "gallery.create", target: id, newValue: options.originalName });
    });
  } catch (error) {
    await prepared.discard();
    throw error;
  }
  // With the watermark the settings ask for when it runs, not `options.watermark`, which may be stale by then.
  if (!prepared.ready) finishImageInBackground(db, prepared.id, { storage: options.storage });
  return id;
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
