import { type Kysely, sql, type Transaction } from "kysely";
import { isPostgres } from "#app/db/database.server.ts";
import type { Database, DbDate } from "#app/db/schema.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { markdownToText } from "#app/lib/markdown.server.ts";
import { indexTerms } from "#app/lib/search-text.ts";
import { DocumentIds, firstIdOf } from "./document-ids.server.ts";

/*
 * The search index's writes (issue 22, docs/decisions/015-search.md): the rows of `search_documents`, one per item
 * and language, made from the item's text. Every write of a post, picture, FAQ entry, video or link calls
 * `indexItems` inside its own transaction, so the index never disagrees with what is committed; `reindexAll`
 * rebuilds everything (the CLI's `search reindex`, a restore). This folder imports no content domain: they import
 * it. Visibility is no business of the index (a search joins the content tables and applies their rules).
 */

export type SearchDocumentKind = "post" | "picture" | "faq" | "video" | "link";
export const SEARCH_DOCUMENT_KINDS: readonly SearchDocumentKind[] = ["post", "picture", "faq", "video", "link"];
type Db = Kysely<Database> | Transaction<Database>;

/** An item's searchable text in one language: its title, and its other fields best first (the snippet's order). */
export type SearchFields = { title: string; fields: string[] };

/**
 * The German version of a text, or the English one where the German is empty: the rule of every page
 * (`localized` in content.server.ts, which this folder may not import; a test keeps the two equal).
 */
export function localizedText(english: string, german: string, lang: Language): string {
  return lang === "de" && german.trim() !== "" ? german : english;
}

/** The host a link points to ("example.org"), or the address itself when it has none (mailto:, tel:). */
export function linkHost(url: string): string {
  try {
    return new URL(url).hostname || url;
  } catch {
    return url;
  }
}

type PostRow = {
  id: string;
  title: string;
  title_de: string;
  excerpt: string;
  excerpt_de: string;
  body: string;
  body_de: string;
  cover_alt: string;
  cover_alt_de: string;
  tags: string[];
};
type PictureRow = {
  id: string;
  title: string;
  title_de: string;
  description: string;
  description_de: string;
  alt: string;
  alt_de: string;
  category: string;
  category_de: string;
};
type FaqRow = { id: string; question: string; question_de: string; answer: string; answer_de: string };
type VideoRow = { id: string; title: string; title_de: string; description: string; description_de: string };
type LinkRow = { id: string; title: string; title_de: string; url: string };

/** Markdown as the words a visitor reads (no markup, no link targets). */
function text(markdown: string): string {
  return markdown.trim() === "" ? "" : markdownToText(markdown);
}

/** The searchable fields of each kind, in a language (German falling back to English field by field). */
export const fieldsOf = {
  post: (row: PostRow, lang: Language): SearchFields => ({
    title: localizedText(row.title, row.title_de, lang),
    fields: [
      localizedText(row.excerpt, row.excerpt_de, lang),
      text(localizedText(row.body, row.body_de, lang)),
      localizedText(row.cover_alt, row.cover_alt_de, lang),
      row.tags.join(", "),
    ],
  }),
  picture: (row: PictureRow, lang: Language): SearchFields => ({
    title: localizedText(row.title, row.title_de, lang),
    fields: [
      text(localizedText(row.description, row.description_de, lang)),
      localizedText(row.alt, row.alt_de, lang),
      localizedText(row.category, row.category_de, lang),
    ],
  }),
  faq: (row: FaqRow, lang: Language): SearchFields => ({
    title: localizedText(row.question, row.question_de, lang),
    fields: [text(localizedText(row.answer, row.answer_de, lang))],
  }),
  video: (row: VideoRow, lang: Language): SearchFields => ({
    title: localizedText(row.title, row.title_de, lang),
    fields: [localizedText(row.description, row.description_de, lang)],
  }),
  link: (row: LinkRow, lang: Language): SearchFields => ({
    title: localizedText(row.title, row.title_de, lang),
    fields: [linkHost(row.url)],
  }),
};

/** Reads items of a kind: those named, or (for a rebuild) a batch after `after` in id order. */
type Selection = { ids: string[] } | { after: string; limit: number };

/** The columns of a post's searchable text (with its alias `p`), as `fieldsOf.post` reads them (and its tags). */
export const POST_FIELD_COLUMNS = [
  "p.title",
  "p.title_de",
  "p.excerpt",
  "p.excerpt_de",
  "p.body",
  "p.body_de",
  "p.cover_alt",
  "p.cover_alt_de",
] as const;
/** The columns of a picture's searchable text (with its alias `g`), as `fieldsOf.picture` reads them. */
export const PICTURE_FIELD_COLUMNS = [
  "g.title",
  "g.title_de",
  "g.description",
  "g.description_de",
  "g.alt",
  "g.alt_de",
  "g.category",
  "g.category_de",
] as const;

/** The tags of these posts, each post's in alphabetical order. */
export async function postTagsOf(db: Db, postIds: string[]): Promise<Map<string, string[]>> {
  const tags = new Map<string, string[]>();
  if (postIds.length === 0) return tags;
  const rows = await db
    .selectFrom("post_tags")
    .select(["post_id", "tag"])
    .where("post_id", "in", postIds)
    .orderBy("tag")
    .execute();
  for (const row of rows) tags.set(row.post_id, [...(tags.get(row.post_id) ?? []), row.tag]);
  return tags;
}

async function postRows(db: Db, selection: Selection): Promise<(PostRow & Dated)[]> {
  let query = db
    .selectFrom("posts as p")
    .select(["p.id", ...POST_FIELD_COLUMNS, (eb) => eb.fn.coalesce("p.publish_at", "p.created_at").as("created_at")]);
  query = "ids" in selection ? query.where("p.id", "in", selection.ids) : query.where("p.id", ">", selection.after);
  const rows = await ("ids" in selection ? query : query.orderBy("p.id").limit(selection.limit)).execute();
  const tags = await postTagsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, tags: tags.get(row.id) ?? [] }));
}

/** Every reader also gives the item's date, the order of the index (document-ids.server.ts). */
type Dated = { created_at: DbDate };

const readers: {
  [K in SearchDocumentKind]: (db: Db, selection: Selection) => Promise<(Parameters<(typeof fieldsOf)[K]>[0] & Dated)[]>;
} = {
  post: postRows,
  picture: async (db, selection) => {
    const query = db.selectFrom("gallery_images as g").select(["g.id", ...PICTURE_FIELD_COLUMNS, "g.created_at"]);
    return "ids" in selection
      ? query.where("g.id", "in", selection.ids).execute()
      : query.where("g.id", ">", selection.after).orderBy("g.id").limit(selection.limit).execute();
  },
  faq: async (db, selection) => {
    const query = db
      .selectFrom("faq_entries")
      .select(["id", "question", "question_de", "answer", "answer_de", "created_at"]);
    return "ids" in selection
      ? query.where("id", "in", selection.ids).execute()
      : query.where("id", ">", selection.after).orderBy("id").limit(selection.limit).execute();
  },
  video: async (db, selection) => {
    const query = db
      .selectFrom("videos")
      .select(["id", "title", "title_de", "description", "description_de", "created_at"]);
    return "ids" in selection
      ? query.where("id", "in", selection.ids).execute()
      : query.where("id", ">", selection.after).orderBy("id").limit(selection.limit).execute();
  },
  link: async (db, selection) => {
    const query = db.selectFrom("links").select(["id", "title", "title_de", "url", "created_at"]);
    return "ids" in selection
      ? query.where("id", "in", selection.ids).execute()
      : query.where("id", ">", selection.after).orderBy("id").limit(selection.limit).execute();
  },
};

type DocumentRow = { id: number; kind: string; item_id: string; lang: string; title_terms: string; terms: string };

/** An item's rows, one per language, numbered by `ids` in its kind's and language's range, in its date's order. */
async function documentsOf(
  db: Db,
  ids: DocumentIds,
  kind: SearchDocumentKind,
  rows: ({ id: string } & Dated)[],
): Promise<DocumentRow[]> {
  const fields = fieldsOf[kind] as (row: unknown, lang: Language) => SearchFields;
  const made = rows.flatMap((row) =>
    (["en", "de"] as const).map((lang) => {
      const { title, fields: others } = fields(row, lang);
      const titleTerms = indexTerms(title, lang);
      const terms = new Set(titleTerms);
      for (const field of others) indexTerms(field, lang, terms);
      return {
        first: firstIdOf(kind, lang, row.created_at),
        kind,
        item_id: row.id,
        lang,
        title_terms: [...titleTerms].join(" "),
        terms: [...terms].join(" "),
      };
    }),
  );
  const numbers = await ids.allocate(
    db,
    made.map((row) => row.first),
  );
  return made.map(({ first: _, ...row }, index) => ({ ...row, id: numbers[index] as number }));
}

async function writeDocuments(db: Db, documents: DocumentRow[]): Promise<void> {
  for (let start = 0; start < documents.length; start += 200) {
    await db
      .insertInto("search_documents")
      .values(documents.slice(start, start + 200))
      .execute();
  }
}

/**
 * Brings the index's rows of these items up to date with their tables, in the caller's transaction (call it after
 * the item's write): an item that exists is (re)indexed in both languages, one that is gone loses its rows. The
 * old rows go first (a new date is a new id): two saves of one item at once wait for each other at the item's own
 * row, written before this, so the second replaces the first's rows.
 */
export async function indexItems(db: Db, kind: SearchDocumentKind, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await readers[kind](db, { ids });
  await db.deleteFrom("search_documents").where("kind", "=", kind).where("item_id", "in", ids).execute();
  await writeDocuments(db, await documentsOf(db, new DocumentIds(), kind, rows));
}

/** Items read per statement by a rebuild. */
const REBUILD_BATCH = 500;

/**
 * Rebuilds the whole index from the content tables in one transaction (readers keep the old index until it
 * commits). Answers how many items of each kind it indexed.
 */
export async function reindexAll(db: Kysely<Database>): Promise<Record<SearchDocumentKind, number>> {
  const counts = { post: 0, picture: 0, faq: 0, video: 0, link: 0 };
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("search_documents").execute();
    const ids = new DocumentIds(true);
    for (const kind of SEARCH_DOCUMENT_KINDS) {
      for (let after = ""; ; ) {
        const rows = await readers[kind](trx, { after, limit: REBUILD_BATCH });
        await writeDocuments(trx, await documentsOf(trx, ids, kind, rows));
        counts[kind] += rows.length;
        const last = rows.at(-1);
        if (!last || rows.length < REBUILD_BATCH) break;
        after = last.id;
      }
    }
    // SQLite: the rebuild left the old rows' deletion markers and the new rows in pieces (FTS5's segments), which
    // every search reads one by one until merges come by. Merged into one, a search takes a sixth to a fifth less
    // (decision 015, "A rebuild leaves the index as a grown site has it"). 0.6 s at 24,000 rows.
    if (!isPostgres(trx)) await sql`INSERT INTO search_fts (search_fts) VALUES ('optimize')`.execute(trx);
  });
  if (isPostgres(db)) {
    // PostgreSQL: the rows were written kind by kind in the order of their items' ids, not of the index's ids (their
    // date). The planner prices a walk along the primary key by how far its order is from the rows' order on disk, so
    // the rows are put in id order, as a site that grew has them (about 2 s of the bench's 25 s rebuild of 24,000
    // rows; searches wait for it).
    await sql`CLUSTER search_documents USING search_documents_pkey`.execute(db);
    // Every row is new: PostgreSQL's planner would choose the search's plans from the old statistics until
    // autovacuum came by (a rare word planned as a common one walks every row of its kind).
    await sql`ANALYZE search_documents`.execute(db);
  }
  return counts;
}
