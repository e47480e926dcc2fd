import { publishedBy, visibleTo } from "#app/domains/posts/post-rows.server.ts";
import { postUrl } from "#app/domains/seo/feeds.server.ts";
import type { AnnouncedSource } from "./announced-source.ts";

/*
 * Posts as announcements see them: out when published (or scheduled with its time come: `publishedBy`, as every
 * page reads them), readable by the same `visibleTo(reader)` the blog's pages use.
 */

export const postSource: AnnouncedSource = {
  async isOut(db, id, now) {
    const row = await db
      .selectFrom("posts as p")
      .select("p.id")
      .where("p.id", "=", id)
      .where(publishedBy(now))
      .executeTakeFirst();
    return row !== undefined;
  },
  async readableBy(db, id, reader, now) {
    const row = await db
      .selectFrom("posts as p")
      .select("p.id")
      .where("p.id", "=", id)
      .where(visibleTo(reader, now))
      .executeTakeFirst();
    return row !== undefined;
  },
  async describe(db, id, lang, baseUrl) {
    const row = await db
      .selectFrom("posts")
      .select(["title", "title_de", "excerpt", "excerpt_de", "slug", "slug_de"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return null;
    const german = lang === "de";
    return {
      title: (german && row.title_de) || row.title,
      excerpt: (german && row.excerpt_de) || row.excerpt,
      url: postUrl(baseUrl, { slugs: { en: row.slug, de: row.slug_de || row.slug } }, lang),
    };
  },
  async unannounced(db, now, limit) {
    const rows = await db
      .selectFrom("posts as p")
      .select("p.id")
      .where(publishedBy(now))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("announcements as a")
              .select("a.item_id")
              .where("a.kind", "=", "post")
              .whereRef("a.item_id", "=", "p.id"),
          ),
        ),
      )
      .orderBy("p.publish_at")
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  },
};
