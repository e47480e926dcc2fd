import { describe, expect, it } from "vitest";
import { followedSlugs, type SlugFields, slugsFollow } from "./slug-follow.ts";

/** The editor's steps: open on `values`, then type each change; the slugs as the form would send them. */
function edit(values: SlugFields, published: boolean, changes: Partial<SlugFields>[]) {
  let follow = slugsFollow(values, published);
  let current = values;
  for (const change of changes) {
    if (change.slug !== undefined) follow = { ...follow, en: false };
    if (change.slug_de !== undefined) follow = { ...follow, de: false };
    current = { ...current, ...change };
    current = { ...current, ...followedSlugs(current, follow) };
  }
  return { slug: current.slug, slug_de: current.slug_de };
}

const empty: SlugFields = { title: "", slug: "", title_de: "", slug_de: "" };

describe("the editor's slugs", () => {
  it("follow each title in a new post: the German slug the German title, not the English one", () => {
    expect(edit(empty, false, [{ title: "Coffee at dawn" }, { title_de: "Kaffee im Morgengrauen" }])).toEqual({
      slug: "coffee-at-dawn",
      slug_de: "kaffee-im-morgengrauen",
    });
  });

  it("give the German slug the English one while there is no German title", () => {
    expect(edit(empty, false, [{ title: "Coffee" }])).toEqual({ slug: "coffee", slug_de: "coffee" });
    expect(edit(empty, false, [{ title: "Coffee" }, { slug: "my-coffee" }])).toEqual({
      slug: "my-coffee",
      slug_de: "my-coffee",
    });
    // A German title written and removed again: back to the English slug.
    expect(edit(empty, false, [{ title: "Tea" }, { title_de: "Tee" }, { title_de: "" }])).toEqual({
      slug: "tea",
      slug_de: "tea",
    });
  });

  it("keep following after a save stored the English slug as the German one (the owner's report)", () => {
    const saved = { title: "Coffee", slug: "coffee", title_de: "", slug_de: "coffee" };
    expect(edit(saved, false, [{ title_de: "Kaffee" }])).toEqual({ slug: "coffee", slug_de: "kaffee" });
    // The server numbered a slug another post had: still the title's.
    const numbered = { title: "Coffee", slug: "coffee-2", title_de: "Kaffee", slug_de: "kaffee-3" };
    expect(edit(numbered, false, [{ title: "Tea" }, { title_de: "Tee" }])).toEqual({ slug: "tea", slug_de: "tee" });
  });

  it("stop following once the admin edits a slug", () => {
    expect(edit(empty, false, [{ title: "Coffee" }, { slug_de: "kaffee-spezial" }, { title_de: "Kaffee" }])).toEqual({
      slug: "coffee",
      slug_de: "kaffee-spezial",
    });
    const written = { title: "Coffee", slug: "my-own", title_de: "Kaffee", slug_de: "mein-eigener" };
    expect(edit(written, false, [{ title: "Tea" }, { title_de: "Tee" }])).toEqual({
      slug: "my-own",
      slug_de: "mein-eigener",
    });
  });

  it("never follow once the post has been published: its addresses are linked", () => {
    const published = { title: "Coffee", slug: "coffee", title_de: "", slug_de: "coffee" };
    expect(edit(published, true, [{ title: "Tea" }, { title_de: "Tee" }])).toEqual({
      slug: "coffee",
      slug_de: "coffee",
    });
  });
});
