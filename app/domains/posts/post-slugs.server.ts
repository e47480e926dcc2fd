import type { Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { Language } from "#app/i18n/i18n.ts";
import type { Db } from "./post-rows.server.ts";
import { type PostFields, SLUG_MAX, slugify } from "./post-schema.ts";
import { isMadeFrom } from "./slug-follow.ts";

/** The slugs of a post: chosen from what was typed or the title, and kept once linkable so old addresses answer 301. */

/** The slug `base`, or `base-2`, `base-3`, … : the first no other post has (or ever had) in this language. */
async function freeSlug(db: Db, lang: Language, base: string, postId: string): Promise<string> {
  const stem = base || "post";
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "" : `-${n}`;
    const candidate = `${stem.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!(await slugOwner(db, lang, candidate, postId))) return candidate;
  }
}

/** True when another post has (or had) this slug in this language. */
async function slugOwner(db: Db, lang: Language, slug: string, postId: string): Promise<boolean> {
  const row = await db
    .selectFrom("post_slugs")
    .select("post_id")
    .where("lang", "=", lang)
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row !== undefined && row.post_id !== postId;
}

/**
 * The slugs a post gets: the one typed (refused when another post has or had it), else the current one while
 * it still fits the title, else one made from the title (the English title when there is no German one).
 */
export async function chooseSlugs(
  db: Db,
  fields: PostFields,
  postId: string,
  current: { slug: string; slug_de: string } | null,
): Promise<{ ok: true; slug: string; slugDe: string } | { ok: false; fieldErrors: Record<string, string> }> {
  const choose = async (lang: Language, typed: string, title: string, now: string | undefined) => {
    if (typed !== "") {
      return (await slugOwner(db, lang, typed, postId)) ? null : typed;
    }
    const base = slugify(title) || "post";
    if (now && isMadeFrom(now, base)) return now;
    return freeSlug(db, lang, base, postId);
  };
  const slug = await choose("en", fields.slug, fields.title, current?.slug);
  const slugDe = await choose("de", fields.slug_de, fields.title_de || fields.title, current?.slug_de);
  const fieldErrors: Record<string, string> = {};
  if (slug === null) fieldErrors.slug = "admin.posts.error.slugTaken";
  if (slugDe === null) fieldErrors.slug_de = "admin.posts.error.slugTaken";
  if (slug === null || slugDe === null) return { ok: false, fieldErrors };
  return { ok: true, slug, slugDe };
}

/** Records the post's current slugs as slugs it had; a post never published forgets the ones nobody could link to. */
export async function keepSlugs(
  trx: Transaction<Database>,
  postId: string,
  slugs: Record<Language, string>,
  published: boolean,
) {
  for (const lang of ["en", "de"] as const) {
    if (!published) {
      await trx
        .deleteFrom("post_slugs")
        .where("post_id", "=", postId)
        .where("lang", "=", lang)
        .where("slug", "!=", slugs[lang])
        .execute();
    }
    await trx
      .insertInto("post_slugs")
      .values({ slug: slugs[lang], lang, post_id: postId })
      .onConflict((oc) => oc.columns(["lang", "slug"]).doNothing())
      .execute();
  }
}
