import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { openDatabase } from "#app/db/database.server.ts";
import { reindexAll } from "#app/domains/search-index/search-index.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { seededRandom } from "#tests/support/fuzz-values.ts";
import { Corpus } from "./search-corpus.ts";
import { seedDataFolder } from "./seed-data.ts";

/*
 * The search section's data folder (scripts/bench/search.ts): the sample content through the real services, then
 * the pictures and posts as rows straight into its SQLite database, then the index by the real `reindexAll`.
 */

/** Words of a post body: "a few hundred". */
const BODY_WORDS = { min: 200, max: 700 };

/**
 * Seeds the folder: sample content through the real services, then `pictures` pictures and `posts` posts
 * inserted as rows, published; then the index rebuilt by `reindexAll`, timed.
 */
export async function seedSearchData(dir: string, settings: { pictures: number; posts: number }, authSecret: string) {
  await seedDataFolder(dir, { realPictures: 0, authSecret });
  const file = sqliteFileIn(dir);
  const corpus = new Corpus(seededRandom(22));
  const db = new Database(file);
  try {
    const image = db.prepare("SELECT * FROM images WHERE ready = 1 ORDER BY created_at LIMIT 1").get() as
      | Record<string, unknown>
      | undefined;
    if (!image) throw new Error("The sample content has no ready picture to copy");
    const insert = (table: string, row: Record<string, unknown>) => {
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`).run(
        row,
      );
    };
    const start = Date.parse("2020-01-01T00:00:00Z");
    const { sortOrder } = db.prepare("SELECT coalesce(max(sort_order), 0) AS sortOrder FROM gallery_images").get() as {
      sortOrder: number;
    };
    db.transaction(() => {
      for (let index = 0; index < settings.pictures; index++) {
        const created = new Date(start + index * 3_600_000).toISOString();
        const imageId = randomUUID();
        insert("images", { ...image, id: imageId, created_at: created });
        insert("gallery_images", {
          id: randomUUID(),
          image_id: imageId,
          title: corpus.title("en"),
          title_de: corpus.title("de"),
          // The rare word in 1 picture of 500 and 1 post of 100 (both languages): some 40 items of the full size.
          description: corpus.short("en", index % 500 === 0),
          description_de: corpus.short("de", index % 500 === 0),
          ...corpus.category(),
          alt: corpus.short("en"),
          alt_de: corpus.short("de"),
          sort_order: sortOrder + index + 1,
          published: 1,
          created_at: created,
          updated_at: created,
        });
      }
      const author = randomUUID();
      for (let index = 0; index < settings.posts; index++) {
        const created = new Date(start + index * 7_200_000).toISOString();
        const id = randomUUID();
        const words = () => corpus.between(BODY_WORDS.min, BODY_WORDS.max);
        const [title, titleDe] = [corpus.title("en"), corpus.title("de")];
        const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${index}`;
        const slugDe = `${titleDe
          .toLowerCase()
          .normalize("NFKD")
          .replace(/[^a-z0-9]+/g, "-")}-${index}`;
        insert("posts", {
          id,
          author_id: author,
          status: "published",
          publish_at: created,
          title,
          title_de: titleDe,
          slug,
          slug_de: slugDe,
          excerpt: corpus.short("en"),
          excerpt_de: corpus.short("de"),
          body: corpus.body("en", words(), index % 100 === 0),
          body_de: corpus.body("de", words(), index % 100 === 0),
          cover_image_id: null,
          cover_alt: "",
          cover_alt_de: "",
          created_at: created,
          updated_at: created,
        });
        insert("post_slugs", { slug, lang: "en", post_id: id });
        insert("post_slugs", { slug: slugDe, lang: "de", post_id: id });
        // The two lists share some words (a German tag may also be an English one): each once per post.
        const tags = new Set([...corpus.tags("en", 2), ...corpus.tags("de", 1)]);
        for (const tag of tags) insert("post_tags", { post_id: id, tag });
      }
    })();
  } finally {
    db.close();
  }

  const database = openDatabase({ sqliteFile: file });
  let reindexMs: number;
  let indexed: Record<string, number>;
  try {
    const started = performance.now();
    indexed = await reindexAll(database.db);
    reindexMs = performance.now() - started;
  } finally {
    await database.close();
  }
  return { reindexMs, indexed, ...indexSize(file) };
}

/**
 * The index's bytes on disk: the pages of `search_documents` (its rows and indexes) and of the FTS5 table's
 * shadow tables (`search_fts_data`, `_idx`, `_docsize`, `_config`), summed by SQLite's `dbstat` table.
 */
export function indexSize(sqliteFile: string): { indexBytes: number; databaseBytes: number } {
  const db = new Database(sqliteFile, { readonly: true });
  try {
    const { bytes } = db
      .prepare(
        `SELECT coalesce(sum(d.pgsize), 0) AS bytes FROM dbstat d JOIN sqlite_master m ON m.name = d.name
         WHERE m.tbl_name = 'search_documents' OR m.tbl_name LIKE 'search\\_fts%' ESCAPE '\\'`,
      )
      .get() as { bytes: number };
    const { total } = db.prepare("SELECT sum(pgsize) AS total FROM dbstat").get() as { total: number };
    return { indexBytes: bytes, databaseBytes: total };
  } finally {
    db.close();
  }
}
