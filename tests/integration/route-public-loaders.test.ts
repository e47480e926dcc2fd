import { describe, expect, it } from "vitest";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { AdminPost, PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { loader as blogLoader } from "#app/routes/blog._index.tsx";
import { loader as postLoader } from "#app/routes/blog.$slug.tsx";
import { loader as galleryLoader } from "#app/routes/gallery.tsx";
import { createUser } from "../support/factories.ts";
import { createGalleryPicture } from "../support/gallery-factories.ts";
import { outcomeOf, routeArgs, statusOf, useRouteRuntime } from "../support/route-context.ts";
import { databaseKinds } from "../support/test-database.ts";

function accepted(result: PostWriteResult): AdminPost {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

// Public loaders called in-process (tests/support/route-context.ts): what a visitor is given, without a server.
describe.each(databaseKinds)("the public loaders, called in-process (%s)", (kind) => {
  const current = useRouteRuntime(kind);

  async function author() {
    const admin = await createUser(current().database.db, { admin: true });
    return { id: admin.id, email: admin.email };
  }

  it("the gallery gives a visitor its published pictures only", async () => {
    const { runtime, database } = current();
    const shown = await createGalleryPicture(database.db, runtime.storage, { title: "Shown picture" });
    const hidden = await createGalleryPicture(database.db, runtime.storage, {
      title: "Hidden picture",
      published: false,
    });
    const result = await galleryLoader(routeArgs(runtime, null, "/gallery"));
    const ids = result.gallery.items.map((item) => item.id);
    expect(ids).toContain(shown);
    expect(ids).not.toContain(hidden);
    expect(result.gallery.total).toBe(1);
  });

  it("the blog list gives published posts only, never a draft or a post not yet due", async () => {
    const { runtime, database } = current();
    const actor = await author();
    const post = accepted(await createPost(database.db, actor, { title: "Out now", excerpt: "A first word" }));
    accepted(await setPostStatus(database.db, actor, post.id, { status: "published" }));
    accepted(await createPost(database.db, actor, { title: "Hidden draft" }));
    const later = accepted(await createPost(database.db, actor, { title: "Not yet" }));
    const inAnHour = new Date(Date.now() + 3_600_000);
    accepted(await setPostStatus(database.db, actor, later.id, { status: "scheduled", publishAt: inAnHour }));

    const result = await blogLoader(routeArgs(runtime, null, "/blog"));
    expect(result.list.posts.map((card) => card.title)).toEqual(["Out now"]);
    expect(result.list.posts[0]?.excerpt).toBe("A first word");
  });

  it("a post's page shows a published post and answers 404 for a draft's address, to an admin too", async () => {
    const { runtime, database } = current();
    const actor = await author();
    const out = accepted(await createPost(database.db, actor, { title: "Read me" }));
    accepted(await setPostStatus(database.db, actor, out.id, { status: "published" }));
    const page = await postLoader(routeArgs(runtime, null, `/blog/${out.slug}`, { params: { slug: out.slug } }));
    expect(page.post).toMatchObject({ title: "Read me" });
    const draft = accepted(await createPost(database.db, actor, { title: "Draft by address" }));
    for (const visitor of [null, { ...actor, isAdmin: true }]) {
      const outcome = await outcomeOf(() =>
        postLoader(routeArgs(runtime, visitor, `/blog/${draft.slug}`, { params: { slug: draft.slug } })),
      );
      expect(statusOf(outcome), visitor ? "an admin" : "a visitor").toBe(404);
    }
  });
});
