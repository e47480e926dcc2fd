import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";
import type { Reader } from "#app/domains/access/reader.ts";
import { albumHref } from "#app/domains/albums/album.ts";
import { listNewAlbums } from "#app/domains/albums/albums-public.server.ts";
import { localized } from "#app/domains/content/content.server.ts";
import { publishedQuery } from "#app/domains/gallery/gallery-public.server.ts";
import { postsQuery, visibleTo } from "#app/domains/posts/post-rows.server.ts";
import type { Language } from "#app/i18n/i18n.ts";

/*
 * "New for you since your last visit" (issue 21): on a signed-in reader's home page, the posts, pictures and albums that
 * appeared since their previous visit ended, among what they may see (the one rule: app/domains/access/). A visit
 * ends after VISIT_GAP_MS without a request; the session's last activity (noted every 5 minutes) tells when.
 */

/** A request after this long without one starts a new visit. */
export const VISIT_GAP_MS = 30 * 60_000;
/** At most this many items of each kind. */
export const NEW_FOR_YOU_LIMIT = 6;

export type NewItem = { kind: "post" | "picture" | "album"; id: string; title: string; href: string; at: string };

/**
 * Notes the start of a new visit of `userId` when their session was last active `lastActive`, more than
 * VISIT_GAP_MS before `now`: the previous visit ended then (the latest such end is kept, across their devices).
 */
export async function noteVisit(db: Kysely<Database>, userId: string, lastActive: Date, now: Date): Promise<void> {
  if (now.getTime() - lastActive.getTime() < VISIT_GAP_MS) return;
  await db
    .insertInto("member_visits")
    .values({ user_id: userId, last_visit_ended_at: lastActive })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet({ last_visit_ended_at: lastActive })
        .where("member_visits.last_visit_ended_at", "<", lastActive),
    )
    .execute();
}

/** What appeared for `reader` since their previous visit ended, newest first; nothing before a first visit ended. */
export async function listNewForYou(
  db: Kysely<Database>,
  reader: Reader,
  lang: Language,
  now = new Date(),
): Promise<NewItem[]> {
  if (reader.kind === "visitor") return [];
  const visit = await db
    .selectFrom("member_visits")
    .select("last_visit_ended_at")
    .where("user_id", "=", reader.userId)
    .executeTakeFirst();
  if (!visit) return [];
  const since = new Date(toIsoString(visit.last_visit_ended_at));
  const [posts, pictures, albums] = await Promise.all([
    postsQuery(db)
      .where(visibleTo(reader, now))
      .where("p.publish_at", ">", since)
      .orderBy("p.publish_at", "desc")
      .limit(NEW_FOR_YOU_LIMIT)
      .execute(),
    publishedQuery(db, reader)
      .select(["g.id", "g.title", "g.title_de", "g.alt", "g.alt_de", "g.created_at"])
      .where("g.created_at", ">", since)
      .orderBy("g.created_at", "desc")
      .limit(NEW_FOR_YOU_LIMIT)
      .execute(),
    listNewAlbums(db, { reader, since, limit: NEW_FOR_YOU_LIMIT }),
  ]);
  const items: NewItem[] = [
    ...posts.map((row) => ({
      kind: "post" as const,
      id: row.id,
      title: localized(row.title, row.title_de, lang),
      href: `/blog/${lang === "de" ? row.slug_de : row.slug}`,
      at: toIsoString(row.publish_at ?? row.created_at),
    })),
    ...pictures.map((row) => ({
      kind: "picture" as const,
      id: row.id,
      title: localized(row.title, row.title_de, lang).trim() || localized(row.alt, row.alt_de, lang),
      href: `/?image=${encodeURIComponent(row.id)}`,
      at: toIsoString(row.created_at),
    })),
    ...albums.map((row) => ({
      kind: "album" as const,
      id: row.id,
      title: localized(row.title, row.title_de, lang),
      href: albumHref(lang === "de" ? row.slug_de : row.slug),
      at: toIsoString(row.created_at),
    })),
  ];
  return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}
