import { slugify } from "./post-schema.ts";

/**
 * How the editor's slugs follow the titles (post-editor.tsx), kept apart from the component so the rule can be
 * tested: a slug follows its title until the admin edits it, and never once the post has been published (links
 * to it exist). The German slug follows the German title; while there is no German title, German visitors see
 * the English one, and the German slug is the English slug.
 */
export type SlugFields = { title: string; slug: string; title_de: string; slug_de: string };
export type SlugsFollow = { en: boolean; de: boolean };

/** `slug` is `base`, or `base-<n>`: what the server makes from a title whose slug was taken. */
export function isMadeFrom(slug: string, base: string): boolean {
  return slug === base || (slug.startsWith(`${base}-`) && /^\d+$/.test(slug.slice(base.length + 1)));
}

/** The slug the server makes from a title with nothing usable in it. */
const madeFrom = (title: string) => slugify(title) || "post";

/**
 * Whether each slug still follows its title when the editor opens: it is empty, or it is what the title (or, for
 * a German slug without a German title, the English slug or title) would make. A slug the admin wrote differs.
 */
export function slugsFollow(values: SlugFields, published: boolean): SlugsFollow {
  if (published) return { en: false, de: false };
  const en = values.slug === "" || isMadeFrom(values.slug, madeFrom(values.title));
  const de =
    values.slug_de === "" ||
    (values.title_de.trim() === ""
      ? values.slug_de === values.slug || isMadeFrom(values.slug_de, madeFrom(values.title))
      : isMadeFrom(values.slug_de, madeFrom(values.title_de)));
  return { en, de };
}

/** The slugs after a title or the English slug changed: each one that follows is made again. */
export function followedSlugs(values: SlugFields, follow: SlugsFollow): { slug: string; slug_de: string } {
  const slug = follow.en ? slugify(values.title) : values.slug;
  const slug_de = follow.de ? (values.title_de.trim() === "" ? slug : slugify(values.title_de)) : values.slug_de;
  return { slug, slug_de };
}
