import type { Kysely } from "kysely";
import type { Database, DbBoolean } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { VISITOR } from "#app/domains/access/reader.ts";
import { altTextOf } from "#app/domains/gallery/gallery-public.server.ts";
import { linkHref } from "#app/domains/links/link-address.ts";
import { imageForDisplay } from "#app/domains/media/image-display.server.ts";
import { imageUrl } from "#app/domains/media/image-display.ts";
import {
  fieldsOf,
  PICTURE_FIELD_COLUMNS,
  POST_FIELD_COLUMNS,
  postTagsOf,
  type SearchFields,
} from "#app/domains/search-index/search-index.server.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { galleryHref } from "#app/lib/gallery-url.ts";
import { type QueryTerm, snippetOf } from "#app/lib/search-text.ts";
import type { SearchHit, SearchKind } from "./search-schema.ts";
import type { SearchAudience } from "./search-visibility.server.ts";

/* A page of results as the page shows them: title, address, thumbnail and the snippet of each. */

/** An item that matched, before the page's items are read in full. */
export type Candidate = { kind: SearchKind; id: string; titleTerms: string; time: number };

type Db = Kysely<Database>;
type Thumbnail = Omit<NonNullable<SearchHit["thumbnail"]>, "alt">;
/** What a hit is made of: the item's text, its address, and the image that stands for it (when it has one). */
type Source = { fields: SearchFields; url: string; alt: string; thumbnail: Thumbnail | null };

/** The image's columns, joined to an item's row (null without an image). */
const IMAGE_COLUMNS = [
  "i.width as image_width",
  "i.height as image_height",
  "i.placeholder as image_placeholder",
  "i.variants as image_variants",
  "i.ready as image_ready",
] as const;
type ImageColumns = {
  image_width: number | null;
  image_height: number | null;
  image_placeholder: string | null;
  image_variants: string | null;
  image_ready: DbBoolean | null;
};

/** The narrowest stored JPEG of an image (its thumbnail needs no more), when all its sizes are made. */
function thumbnailOf(row: ImageColumns): Thumbnail | null {
  if (row.image_variants === null || row.image_ready === null || !toBoolean(row.image_ready)) return null;
  const display = imageForDisplay({
    width: row.image_width ?? 0,
    height: row.image_height ?? 0,
    placeholder: row.image_placeholder ?? "",
    variants: row.image_variants,
  });
  const variant = display.variants.find((width) => width[4] !== "");
  return variant ? { src: imageUrl(display, variant, "jpeg"), width: variant[0], height: variant[1] } : null;
}

/**
 * The named items of a kind as hits need them, in one statement a kind (a post's tags in a second): the text of
 * each (`fieldsOf`, the index's own reading), its address and its image's sizes joined in. (Read apart, the text,
 * the addresses and the images were three statements, each a round trip on PostgreSQL; decision 015.)
 */
async function sourcesOf(db: Db, kind: SearchKind, ids: string[], lang: Language): Promise<Map<string, Source>> {
  const sources = new Map<string, Source>();
  if (ids.length === 0) return sources;
  if (kind === "post") {
    const rows = await db
      .selectFrom("posts as p")
      .leftJoin("images as i", "i.id", "p.cover_image_id")
      .select(["p.id", "p.slug", "p.slug_de", ...POST_FIELD_COLUMNS, ...IMAGE_COLUMNS])
      .where("p.id", "in", ids)
      .execute();
    const tags = await postTagsOf(db, ids);
    for (const row of rows) {
      sources.set(row.id, {
        fields: fieldsOf.post({ ...row, tags: tags.get(row.id) ?? [] }, lang),
        url: `/blog/${lang === "de" ? row.slug_de : row.slug}`,
        alt: "",
        thumbnail: thumbnailOf(row),
      });
    }
  } else if (kind === "picture") {
    const rows = await db
      .selectFrom("gallery_images as g")
      .leftJoin("images as i", "i.id", "g.image_id")
      .select(["g.id", ...PICTURE_FIELD_COLUMNS, ...IMAGE_COLUMNS])
      .where("g.id", "in", ids)
      .execute();
    for (const row of rows) {
      sources.set(row.id, {
        fields: fieldsOf.picture(row, lang),
        url: galleryHref({ image: row.id }),
        alt: altTextOf(row, lang),
        thumbnail: thumbnailOf(row),
      });
    }
  } else if (kind === "video") {
    const rows = await db
      .selectFrom("videos as v")
      .leftJoin("images as i", "i.id", "v.poster_image_id")
      .select(["v.id", "v.title", "v.title_de", "v.description", "v.description_de", ...IMAGE_COLUMNS])
      .where("v.id", "in", ids)
      .execute();
    for (const row of rows) {
      const source = { fields: fieldsOf.video(row, lang), url: `/videos#video-${row.id}` };
      sources.set(row.id, { ...source, alt: "", thumbnail: thumbnailOf(row) });
    }
  } else if (kind === "faq") {
    const rows = await db
      .selectFrom("faq_entries")
      .select(["id", "question", "question_de", "answer", "answer_de"])
      .where("id", "in", ids)
      .execute();
    for (const row of rows)
      sources.set(row.id, { fields: fieldsOf.faq(row, lang), url: `/faq#faq-${row.id}`, alt: "", thumbnail: null });
  } else {
    const rows = await db
      .selectFrom("links")
      .select(["id", "title", "title_de", "url"])
      .where("id", "in", ids)
      .execute();
    for (const row of rows)
      sources.set(row.id, { fields: fieldsOf.link(row, lang), url: linkHref(row.url), alt: "", thumbnail: null });
  }
  return sources;
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
  const sources = new Map<string, Source>();
  for (const kind of new Set(candidates.map((candidate) => candidate.kind))) {
    const ids = candidates.filter((candidate) => candidate.kind === kind).map((candidate) => candidate.id);
    for (const [id, source] of await sourcesOf(db, kind, ids, lang)) sources.set(`${kind}:${id}`, source);
  }
  const hits: SearchHit[] = [];
  for (const candidate of candidates) {
    const source = sources.get(`${candidate.kind}:${candidate.id}`);
    if (!source) continue;
    // A picture without a title is named by its text alternative, as the gallery does.
    const title = source.fields.title.trim() || (candidate.kind === "picture" ? source.alt : "");
    const { thumbnail } = source;
    hits.push({
      kind: candidate.kind,
      id: candidate.id,
      title,
      url: audience === "admin" ? ADMIN_SCREENS[candidate.kind](candidate.id) : source.url,
      snippet: snippetOf(source.fields.fields, terms, lang),
      // The thumbnail sits beside the title, which names it: decorative unless the picture has its own words.
      thumbnail: thumbnail
        ? { ...thumbnail, alt: candidate.kind === "picture" && source.alt !== title ? source.alt : "" }
        : null,
    });
  }
  return hits;
}
