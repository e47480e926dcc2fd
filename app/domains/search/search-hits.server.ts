import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { VISITOR } from "#app/domains/access/reader.ts";
import { altTextOf } from "#app/domains/gallery/gallery-public.server.ts";
import { linkHref } from "#app/domains/links/link-address.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import { imageUrl } from "#app/domains/media/image-display.ts";
import { readSearchFields, type SearchFields } from "#app/domains/search-index/search-index.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { galleryHref } from "#app/lib/gallery-url.ts";
import { type QueryTerm, snippetOf } from "#app/lib/search-text.ts";
import type { SearchHit, SearchKind } from "./search-schema.ts";
import type { SearchAudience } from "./search-visibility.server.ts";

/* A page of results as the page shows them: title, address, thumbnail and the snippet of each. */

/** An item that matched, before the page's items are read in full. */
export type Candidate = { kind: SearchKind; id: string; titleTerms: string; time: number };

type Db = Kysely<Database>;
type Thumbnail = SearchHit["thumbnail"];
/** What a hit needs besides its text: its address, and the image that stands for it. */
type Extra = { url: string; imageId: string | null; alt: string };

/** The narrowest stored JPEG of an image (its thumbnail needs no more), when all its sizes are made. */
async function thumbnailsOf(db: Db, ids: string[]): Promise<Map<string, Omit<NonNullable<Thumbnail>, "alt">>> {
  const found = new Map<string, Omit<NonNullable<Thumbnail>, "alt">>();
  if (ids.length === 0) return found;
  const rows = await db
    .selectFrom("images")
    .select(["id", "width", "height", "placeholder", "variants", "ready"])
    .where("id", "in", ids)
    .execute();
  for (const row of rows) {
    if (!toBoolean(row.ready)) continue;
    const display = imageForDisplay(row);
    const variant = display.variants.find((width) => width[4] !== "");
    if (variant) found.set(row.id, { src: imageUrl(display, variant, "jpeg"), width: variant[0], height: variant[1] });
  }
  return found;
}

async function extrasOf(db: Db, kind: SearchKind, ids: string[], lang: Language): Promise<Map<string, Extra>> {
  const extras = new Map<string, Extra>();
  if (ids.length === 0) return extras;
  if (kind === "post") {
    const rows = await db
      .selectFrom("posts")
      .select(["id", "slug", "slug_de", "cover_image_id", "cover_alt", "cover_alt_de"])
      .where("id", "in", ids)
      .execute();
    for (const row of rows) {
      extras.set(row.id, {
        url: `/blog/${lang === "de" ? row.slug_de : row.slug}`,
        imageId: row.cover_image_id,
        alt: "",
      });
    }
  } else if (kind === "picture") {
    const rows = await db
      .selectFrom("gallery_images")
      .select(["id", "image_id", "alt", "alt_de", "title", "title_de"])
      .where("id", "in", ids)
      .execute();
    for (const row of rows) {
      extras.set(row.id, { url: galleryHref({ image: row.id }), imageId: row.image_id, alt: altTextOf(row, lang) });
    }
  } else if (kind === "video") {
    const rows = await db.selectFrom("videos").select(["id", "poster_image_id"]).where("id", "in", ids).execute();
    for (const row of rows)
      extras.set(row.id, { url: `/videos#video-${row.id}`, imageId: row.poster_image_id, alt: "" });
  } else if (kind === "faq") {
    for (const id of ids) extras.set(id, { url: `/faq#faq-${id}`, imageId: null, alt: "" });
  } else {
    const rows = await db.selectFrom("links").select(["id", "url"]).where("id", "in", ids).execute();
    for (const row of rows) extras.set(row.id, { url: linkHref(row.url), imageId: null, alt: "" });
  }
  return extras;
}

/** The hits of one page, in the candidates' order; an item deleted since it was found is left out. */
/** Where the admin's search leads: the screen that edits the item (a draft has no public page). */
const ADMIN_SCREENS: Record<SearchKind, (id: string) => string> = {
  post: (id) => `/admin/posts/${id}`,
  picture: () => "/admin/gallery",
  faq: () => "/admin/faq",
  video: () => "/admin/videos",
  link: () => "/admin/links",
};

export async function presentHits(
  db: Db,
  candidates: Candidate[],
  terms: QueryTerm[],
  lang: Language,
  audience: SearchAudience = VISITOR,
): Promise<SearchHit[]> {
  const kinds = [...new Set(candidates.map((candidate) => candidate.kind))];
  const texts = new Map<string, SearchFields>();
  const extras = new Map<string, Extra>();
  for (const kind of kinds) {
    const ids = candidates.filter((candidate) => candidate.kind === kind).map((candidate) => candidate.id);
    for (const [id, fields] of await readSearchFields(db, kind, ids, lang)) texts.set(`${kind}:${id}`, fields);
    for (const [id, extra] of await extrasOf(db, kind, ids, lang)) extras.set(`${kind}:${id}`, extra);
  }
  const images = await thumbnailsOf(db, [
    ...new Set([...extras.values()].flatMap((extra) => (extra.imageId ? [extra.imageId] : []))),
  ]);
  const hits: SearchHit[] = [];
  for (const candidate of candidates) {
    const key = `${candidate.kind}:${candidate.id}`;
    const fields = texts.get(key);
    const extra = extras.get(key);
    if (!fields || !extra) continue;
    const image = extra.imageId ? images.get(extra.imageId) : undefined;
    // A picture without a title is named by its text alternative, as the gallery does.
    const title = fields.title.trim() || (candidate.kind === "picture" ? extra.alt : "");
    hits.push({
      kind: candidate.kind,
      id: candidate.id,
      title,
      url: audience === "admin" ? ADMIN_SCREENS[candidate.kind](candidate.id) : extra.url,
      snippet: snippetOf(fields.fields, terms, lang),
      // The thumbnail sits beside the title, which names it: decorative unless the picture has its own words.
      thumbnail: image ? { ...image, alt: candidate.kind === "picture" && extra.alt !== title ? extra.alt : "" } : null,
    });
  }
  return hits;
}
