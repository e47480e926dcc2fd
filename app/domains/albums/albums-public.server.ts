import type { Kysely, Selectable } from "kysely";
import type { AlbumsTable, Database } from "#app/db/schema.ts";
import { groupsOfItems, readableBy } from "#app/domains/access/access.server.ts";
import { type Reader, VISITOR } from "#app/domains/access/reader.ts";
import { localized } from "#app/domains/content/content.server.ts";
import { GALLERY_PAGE_SIZE } from "#app/domains/gallery/gallery.ts";
import { altTextOf, columns, toGalleryItem } from "#app/domains/gallery/gallery-public.server.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { markdownToText, renderMarkdown } from "#app/lib/markdown.server.ts";
import type { AlbumCard, AlbumPage } from "./album.ts";

/*
 * Albums as their readers see them (issue 21). An album is read only through the one rule (`readableBy`, kind
 * "album"); its pictures are the published ones whose sizes exist, whatever their own visibility: a picture shown
 * through an album is for whoever may see the album (the member files' check says the same,
 * gallery-access.server.ts). An album a reader may not see answers as a missing one does.
 */

type Db = Kysely<Database>;

/** The pictures an album shows, in its order (published, every size made). */
function shownPictures(db: Db, albumId: string) {
  return db
    .selectFrom("album_pictures as ap")
    .innerJoin("gallery_images as g", "g.id", "ap.picture_id")
    .innerJoin("images as i", "i.id", "g.image_id")
    .where("ap.album_id", "=", albumId)
    .where("g.published", "=", true)
    .where("i.ready", "=", true);
}

function readableAlbums(db: Db, reader: Reader) {
  return db.selectFrom("albums as a").where(readableBy(reader, "album", "a"));
}

/** The group names a badge shows a member: only their own groups' (never who else an album is for). */
function badgeGroups(reader: Reader, groups: { id: string; name: string }[] | undefined): string[] {
  if (!groups || reader.kind === "visitor") return [];
  if (reader.kind === "admin") return groups.map((group) => group.name);
  return groups.filter((group) => reader.groupIds.includes(group.id)).map((group) => group.name);
}

/**
 * Every album the reader may see, in the owner's order, with its cover (the chosen one while it is shown, else the
 * first picture) and how many pictures it shows. Albums that show no picture are left out but for admins.
 */
export async function listAlbums(db: Db, options: { lang: Language; reader: Reader }): Promise<AlbumCard[]> {
  const { lang, reader } = options;
  const albums = await readableAlbums(db, reader)
    .select(["a.id", "a.slug", "a.slug_de", "a.title", "a.title_de", "a.description", "a.description_de"])
    .select(["a.cover_picture_id", "a.visibility"])
    .orderBy("a.sort_order")
    .orderBy("a.id")
    .execute();
  if (albums.length === 0) return [];
  const ids = albums.map((album) => album.id);
  const [counts, firsts, groups] = await Promise.all([
    db
      .selectFrom("album_pictures as ap")
      .innerJoin("gallery_images as g", "g.id", "ap.picture_id")
      .innerJoin("images as i", "i.id", "g.image_id")
      .where("ap.album_id", "in", ids)
      .where("g.published", "=", true)
      .where("i.ready", "=", true)
      .select((eb) => ["ap.album_id", eb.fn.countAll<number | string>().as("count")])
      .groupBy("ap.album_id")
      .execute(),
    // Each album's cover: the chosen picture if shown, else its first shown picture.
    db
      .selectFrom("album_pictures as ap")
      .innerJoin("gallery_images as g", "g.id", "ap.picture_id")
      .innerJoin("images as i", "i.id", "g.image_id")
      .where("ap.album_id", "in", ids)
      .where("g.published", "=", true)
      .where("i.ready", "=", true)
      .select(["ap.album_id", "ap.sort_order as place", ...columns])
      .orderBy("ap.album_id")
      .orderBy("ap.sort_order")
      .execute(),
    groupsOfItems(db, "album", ids),
  ]);
  const countOf = new Map(counts.map((row) => [row.album_id, Number(row.count)]));
  const cards: AlbumCard[] = [];
  for (const album of albums) {
    const count = countOf.get(album.id) ?? 0;
    if (count === 0 && reader.kind !== "admin") continue;
    const shown = firsts.filter((row) => row.album_id === album.id);
    const cover = shown.find((row) => row.id === album.cover_picture_id) ?? shown[0];
    const description = localized(album.description, album.description_de, lang).trim();
    cards.push({
      id: album.id,
      slug: lang === "de" ? album.slug_de : album.slug,
      title: localized(album.title, album.title_de, lang),
      description: description ? markdownToText(description) : "",
      count,
      cover: cover ? { image: imageForDisplay(cover), alt: altTextOf(cover, lang) } : null,
      visibility: album.visibility,
      groupNames: badgeGroups(reader, groups.get(album.id)),
    });
  }
  return cards;
}

/**
 * One album by either language's slug, with a page of its pictures (the page of `imageId` when it is in the album),
 * or null when there is none the reader may see.
 */
export async function findAlbum(
  db: Db,
  options: { slug: string; lang: Language; reader: Reader; page?: number; imageId?: string | null },
): Promise<AlbumPage | null> {
  const album = await readableAlbums(db, options.reader)
    .selectAll("a")
    .where((eb) => eb.or([eb("a.slug", "=", options.slug), eb("a.slug_de", "=", options.slug)]))
    .executeTakeFirst();
  return album ? albumPageOf(db, album, options) : null;
}

/**
 * The album a share link opens, by its id, whoever the album is for (the link is the holder's only way in, and opens
 * this album alone). Its page names no readers: a stranger is not told whom it is for.
 */
export async function findSharedAlbum(
  db: Db,
  options: { albumId: string; lang: Language; page?: number; imageId?: string | null },
): Promise<AlbumPage | null> {
  const album = await db.selectFrom("albums").selectAll().where("id", "=", options.albumId).executeTakeFirst();
  if (!album) return null;
  const page = await albumPageOf(db, album, { ...options, reader: VISITOR });
  return { ...page, visibility: "everyone", groupNames: [] };
}

async function albumPageOf(
  db: Db,
  album: Selectable<AlbumsTable>,
  options: { lang: Language; reader: Reader; page?: number; imageId?: string | null },
): Promise<AlbumPage> {
  const { lang, reader } = options;
  const order = await shownPictures(db, album.id).select(["g.id"]).orderBy("ap.sort_order").orderBy("g.id").execute();
  const ids = order.map((row) => row.id);
  const total = ids.length;
  const pageCount = Math.max(1, Math.ceil(total / GALLERY_PAGE_SIZE));
  const openAt = options.imageId ? ids.indexOf(options.imageId) : -1;
  const page =
    openAt >= 0 && options.page === undefined
      ? Math.floor(openAt / GALLERY_PAGE_SIZE) + 1
      : Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
  const pageIds = ids.slice((page - 1) * GALLERY_PAGE_SIZE, page * GALLERY_PAGE_SIZE);
  const rows =
    pageIds.length === 0
      ? []
      : await shownPictures(db, album.id).select(columns).where("g.id", "in", pageIds).execute();
  const byId = new Map(rows.map((row) => [row.id, toGalleryItem(row, lang)]));
  const items = pageIds.flatMap((id) => byId.get(id) ?? []);
  const groups = await groupsOfItems(db, "album", [album.id]);
  const description = localized(album.description, album.description_de, lang).trim();
  const coverRow = rows.find((row) => row.id === album.cover_picture_id) ?? rows[0];
  return {
    id: album.id,
    slug: lang === "de" ? album.slug_de : album.slug,
    slugs: { en: album.slug, de: album.slug_de },
    title: localized(album.title, album.title_de, lang),
    description: description ? markdownToText(description) : "",
    descriptionHtml: description ? renderMarkdown(description) : "",
    count: total,
    cover: coverRow ? { image: imageForDisplay(coverRow), alt: altTextOf(coverRow, lang) } : null,
    visibility: album.visibility,
    groupNames: badgeGroups(reader, groups.get(album.id)),
    items,
    page,
    pageCount,
    total,
    openId: openAt >= 0 && items.some((item) => item.id === options.imageId) ? (options.imageId ?? null) : null,
    updatedAt: new Date(album.updated_at).toISOString(),
  };
}

/** Albums with a picture to show (published, every size made): an album is worth offering only then. */
function showingPictures(query: ReturnType<typeof readableAlbums>) {
  return query.where((eb) =>
    eb.exists(
      eb
        .selectFrom("album_pictures as ap")
        .innerJoin("gallery_images as g", "g.id", "ap.picture_id")
        .innerJoin("images as i", "i.id", "g.image_id")
        .select("ap.picture_id")
        .whereRef("ap.album_id", "=", "a.id")
        .where("g.published", "=", true)
        .where("i.ready", "=", true),
    ),
  );
}

/** Whether the reader may see an album with a picture to show: the menu's "Albums" (a visitor's is kept). */
export async function hasVisibleAlbum(db: Db, options: { reader: Reader }): Promise<boolean> {
  const row = await showingPictures(readableAlbums(db, options.reader)).select("a.id").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The menu's check of albums as visitors see them (menu-sections.server.ts keeps its answer until a write). */
export const hasPublicAlbum = (db: Db) => hasVisibleAlbum(db, { reader: VISITOR });

/** The albums a visitor may see that show a picture, with each language's address: the sitemap's entries. */
export async function listPublicAlbumPaths(db: Db): Promise<{ en: string; de: string; updatedAt: Date | string }[]> {
  const rows = await showingPictures(readableAlbums(db, VISITOR))
    .select(["a.slug", "a.slug_de", "a.updated_at"])
    .orderBy("a.sort_order")
    .execute();
  return rows.map((row) => ({ en: `/albums/${row.slug}`, de: `/albums/${row.slug_de}`, updatedAt: row.updated_at }));
}

/**
 * The albums the reader may see that were made after `since` and show a picture, newest first: "New for you"
 * (home/new-for-you.server.ts).
 */
export async function listNewAlbums(
  db: Db,
  options: { reader: Reader; since: Date; limit: number },
): Promise<Pick<Selectable<AlbumsTable>, "id" | "slug" | "slug_de" | "title" | "title_de" | "created_at">[]> {
  return showingPictures(readableAlbums(db, options.reader))
    .select(["a.id", "a.slug", "a.slug_de", "a.title", "a.title_de", "a.created_at"])
    .where("a.created_at", ">", options.since)
    .orderBy("a.created_at", "desc")
    .limit(options.limit)
    .execute();
}
