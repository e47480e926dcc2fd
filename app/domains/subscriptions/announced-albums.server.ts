import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { readableBy } from "#app/domains/access/access.server.ts";
import { languageUrls } from "#app/domains/seo/seo-urls.ts";
import { markdownToText } from "#app/lib/markdown.server.ts";
import type { AnnouncedSource } from "./announced-source.ts";

/*
 * Albums as announcements see them (issue 21): out once they show a published picture (an empty album, or one of
 * hidden pictures only, is nothing to look at yet), readable by the same rule as /albums (`readableBy`, kind album).
 */

type Db = Kysely<Database>;

/** Albums with at least one picture a reader would see (published, every size made). */
function showingAlbums(db: Db) {
  return db
    .selectFrom("albums as a")
    .where((eb) =>
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

/** An excerpt of an album's description for a mail: its first 300 characters as plain text. */
const EXCERPT_MAX = 300;

export const albumSource: AnnouncedSource = {
  async isOut(db, id) {
    return (await showingAlbums(db).select("a.id").where("a.id", "=", id).executeTakeFirst()) !== undefined;
  },
  async readableBy(db, id, reader) {
    const row = await showingAlbums(db)
      .select("a.id")
      .where("a.id", "=", id)
      .where(readableBy(reader, "album", "a"))
      .executeTakeFirst();
    return row !== undefined;
  },
  async describe(db, id, lang, baseUrl) {
    const row = await db
      .selectFrom("albums")
      .select(["title", "title_de", "description", "description_de", "slug", "slug_de"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return null;
    const german = lang === "de";
    const text = markdownToText(((german && row.description_de) || row.description).trim());
    const urls = languageUrls(baseUrl, { en: `/albums/${row.slug}`, de: `/albums/${row.slug_de}` });
    return {
      title: (german && row.title_de) || row.title,
      excerpt: text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX).trimEnd()}…` : text,
      url: german ? urls.de : urls.default,
    };
  },
  async unannounced(db, _now, limit) {
    const rows = await showingAlbums(db)
      .select("a.id")
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("announcements as n")
              .select("n.item_id")
              .where("n.kind", "=", "album")
              .whereRef("n.item_id", "=", "a.id"),
          ),
        ),
      )
      .orderBy("a.created_at")
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  },
};
