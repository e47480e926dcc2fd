import type { Kysely } from "kysely";
import type { Database, GalleryImagesTable, ImagesTable } from "#app/db/schema.ts";
import { cachedUntilChanged } from "#app/db/version-cache.server.ts";
import { readableBy } from "#app/domains/access/access.server.ts";
import { type Reader, readerClassOf, VISITOR } from "#app/domains/access/reader.ts";
import { localized } from "#app/domains/content/content.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { markdownToText, renderMarkdown } from "#app/lib/markdown.server.ts";
import { GALLERY_PAGE_SIZE, type GalleryCategory, type GalleryItem } from "./gallery.ts";

/*
 * The gallery as its reader sees it: published pictures whose sizes all exist and that the reader may see (the one
 * rule of app/domains/access/), in display order, a page at a time. Every read takes its reader, a visitor unless
 * told: the sitemap and every anonymous page read as one.
 */

type JoinedRow = Pick<
  GalleryImagesTable,
  "id" | "title" | "title_de" | "description" | "description_de" | "category" | "category_de"
> & { alt: string; alt_de: string } & Pick<ImagesTable, "width" | "height" | "placeholder" | "variants">;

/** The pictures the reader sees (the gallery's one rule, also the search's: app/domains/search/). */
export function publishedQuery(db: Kysely<Database>, reader: Reader = VISITOR) {
  return (
    db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .where("g.published", "=", true)
      // Visitors see a picture once all its sizes exist.
      .where("i.ready", "=", true)
      .where(readableBy(reader, "picture", "g"))
  );
}

export const columns = [
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

export function toGalleryItem(row: JoinedRow, lang: Language): GalleryItem {
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
export function publishedOrderQuery(db: Kysely<Database>, category: string | null, reader: Reader = VISITOR) {
  const query = publishedQuery(db, reader)
    .select(["g.id", "g.sort_order", "g.category", "g.category_de"])
    .orderBy("g.sort_order")
    .orderBy("g.id");
  return category === null ? query : query.where("g.category", "=", category);
}

/**
 * One page's rows: the pictures from `first` on in display order (keyset paging: a range of the display or
 * category index, however far into the gallery the page is; `publishedOrder` knows where each page starts).
 */
export function pageRowsQuery(
  db: Kysely<Database>,
  category: string | null,
  first: { sortOrder: number; id: string },
  reader: Reader = VISITOR,
) {
  const query = publishedQuery(db, reader)
    .select(columns)
    .where((eb) => eb(eb.refTuple("g.sort_order", "g.id"), ">=", eb.tuple(first.sortOrder, first.id)))
    .orderBy("g.sort_order")
    .orderBy("g.id")
    .limit(GALLERY_PAGE_SIZE);
  return category === null ? query : query.where("g.category", "=", category);
}

/** The pictures published last, newest first (ties by id), read backwards along `(published, created_at, id)`. */
export function latestPublishedQuery(db: Kysely<Database>, limit: number, reader: Reader = VISITOR) {
  return publishedQuery(db, reader)
    .select(columns)
    .orderBy("g.created_at", "desc")
    .orderBy("g.id", "desc")
    .limit(limit);
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

/** Published pictures whose sizes are ready: the gallery's rows and the pictures' (media). */
const ORDER_AREAS = ["gallery", "media"] as const;
/** For a signed-in reader also who may see which: groups and their members move "users" (change-areas.ts). */
const MEMBER_ORDER_AREAS = [...ORDER_AREAS, "users"] as const;

/**
 * The order of the published pictures (all, or of one category), read once per change of the gallery or pictures:
 * counting, paging and finding a shared picture's page then cost nothing per request, whatever the size of
 * the gallery.
 */
function publishedOrder(db: Kysely<Database>, category: string | null, reader: Reader): Promise<PublishedOrder> {
  // Kept per class of reader: every visitor sees the same gallery, every member of the same groups too.
  return cachedUntilChanged(
    db,
    `gallery:order:${readerClassOf(reader)}:${category === null ? "*" : `=${category}`}`,
    async () => {
      const rows = await publishedOrderQuery(db, category, reader).execute();
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
    },
    reader.kind === "visitor" ? ORDER_AREAS : MEMBER_ORDER_AREAS,
  );
}

/**
 * One page of the published pictures in display order, optionally of one category, with the categories
 * in the visitor's language. A shared picture's page is chosen so that the picture is on it.
 */
export async function listPublishedGallery(
  db: Kysely<Database>,
  options: { lang: Language; category?: string | null; page?: number; imageId?: string | null; reader?: Reader },
): Promise<GalleryPage> {
  const { lang } = options;
  const reader = options.reader ?? VISITOR;
  const all = await publishedOrder(db, null, reader);
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
  const order = category === null ? all : await publishedOrder(db, category, reader);
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
      : await pageRowsQuery(db, category, { sortOrder: order.sortOrders[start] ?? 0, id: firstId }, reader).execute();
  const items = rows.map((row) => toGalleryItem(row, lang));
  if (openId !== null && !items.some((item) => item.id === openId)) openId = null;
  return { items, page, pageCount, total, categories, category, openId };
}

/** The pictures published last, newest first (the start page's highlights). */
export async function listLatestPublishedGallery(
  db: Kysely<Database>,
  options: { lang: Language; limit: number; reader?: Reader },
): Promise<GalleryItem[]> {
  const rows = await latestPublishedQuery(db, options.limit, options.reader).execute();
  return rows.map((row) => toGalleryItem(row, options.lang));
}
