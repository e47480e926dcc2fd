import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { albumFieldsSchema } from "#app/domains/albums/album-schema.ts";
import { createAlbum } from "#app/domains/albums/albums.server.ts";
import { createPost } from "#app/domains/posts/post-admin.server.ts";

/*
 * Statistics as the counting leaves them (issue 46), written straight into `stats_daily`, and the content whose
 * addresses they name: what the statistics screen's tests read back.
 */

export type DailyRow = {
  day: string;
  kind: string;
  key: string;
  views: number;
  visitors?: number;
  member_views?: number;
};

/** Rows per statement: six values a row, well under SQLite's bound on variables. */
const CHUNK = 500;

/** Writes the rows (adding to any already there for the same day, kind and key), many per statement. */
export async function seedDaily(db: Kysely<Database>, rows: readonly DailyRow[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += CHUNK) {
      await trx
        .insertInto("stats_daily")
        .values(
          rows.slice(start, start + CHUNK).map((row) => ({
            day: row.day,
            kind: row.kind,
            key: row.key,
            views: row.views,
            visitors: row.visitors ?? 0,
            member_views: row.member_views ?? 0,
          })),
        )
        .onConflict((oc) =>
          oc.columns(["day", "kind", "key"]).doUpdateSet((eb) => ({
            views: eb.ref("excluded.views"),
            visitors: eb.ref("excluded.visitors"),
            member_views: eb.ref("excluded.member_views"),
          })),
        )
        .execute();
    }
  });
}

export type SeededContent = { postSlug: string; postSlugDe: string; albumSlug: string; pictureId: string };

/** A post (titled in both languages), an album and a gallery picture, with the titles the screen should show. */
export async function seedStatisticsContent(db: Kysely<Database>, tag = randomUUID().slice(0, 8)) {
  const actor = { id: "statistics-test", email: "statistics@example.test" };
  const post = await createPost(db, actor, {
    title: `Harbour walk ${tag}`,
    title_de: `Hafenspaziergang ${tag}`,
    slug: `harbour-walk-${tag}`,
    slug_de: `hafenspaziergang-${tag}`,
  });
  if (!post.ok) throw new Error(`post refused: ${JSON.stringify(post)}`);
  const album = await createAlbum(
    db,
    actor,
    albumFieldsSchema.parse({ title: `Northern lights ${tag}`, slug: `northern-lights-${tag}`, slug_de: "" }),
  );
  if (!album.ok) throw new Error(`album refused: ${JSON.stringify(album)}`);
  const imageId = randomUUID();
  const pictureId = randomUUID();
  const now = new Date();
  await db
    .insertInto("images")
    .values({
      id: imageId,
      original_key: `originals/${imageId}.jpg`,
      original_format: "jpeg",
      width: 10,
      height: 10,
      placeholder: "",
      variants: "[]",
      watermark: "",
      private_folder: null,
      created_at: now,
    })
    .execute();
  await db
    .insertInto("gallery_images")
    .values({
      id: pictureId,
      image_id: imageId,
      title: `Lighthouse ${tag}`,
      title_de: `Leuchtturm ${tag}`,
      description: "",
      description_de: "",
      category: "",
      category_de: "",
      sort_order: 0,
      published: false,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const titles = {
    post: `Harbour walk ${tag}`,
    postDe: `Hafenspaziergang ${tag}`,
    album: `Northern lights ${tag}`,
    picture: `Lighthouse ${tag}`,
    pictureDe: `Leuchtturm ${tag}`,
  };
  const content: SeededContent = {
    postSlug: `harbour-walk-${tag}`,
    postSlugDe: `hafenspaziergang-${tag}`,
    albumSlug: `northern-lights-${tag}`,
    pictureId,
  };
  return { ...content, titles };
}
