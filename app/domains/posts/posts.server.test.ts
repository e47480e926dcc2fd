import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import {
  createPost,
  deletePost,
  getPostForAdmin,
  listPostsForAdmin,
  setPostStatus,
  updatePost,
} from "./post-admin.server.ts";
import {
  findPublishedPostBySlug,
  getAdjacentPosts,
  hasPublishedPost,
  listLatestPosts,
  listPostsForFeed,
  listPostsForSitemap,
  listPublishedPosts,
  listPublishedTags,
} from "./post-public.server.ts";
import { type AdminPost, POSTS_PER_PAGE, type PostWriteResult } from "./post-rows.server.ts";
import { nextScheduledAt, publishDuePosts } from "./post-scheduler.server.ts";
import { slugify } from "./post-schema.ts";

function accepted(result: PostWriteResult): AdminPost {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

const T0 = new Date("2026-03-01T10:00:00.000Z");
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

describe("slugify", () => {
  it("makes addresses from titles in either language", () => {
    expect(slugify("Hello, World!")).toBe("hello-world");
    expect(slugify("Größe & Übermut: Straße")).toBe("groesse-uebermut-strasse");
    expect(slugify("Café Ørsted")).toBe("cafe-orsted");
    expect(slugify("  --  ")).toBe("");
    expect(slugify("a".repeat(150))).toHaveLength(100);
  });
});

describe.each(databaseKinds)("posts (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;

  async function published(fields: Record<string, unknown>, at: Date) {
    const post = accepted(await createPost(db(), testAdmin, fields, { now: at }));
    return accepted(await setPostStatus(db(), testAdmin, post.id, { status: "published" }, { now: at }));
  }

  describe("slugs", () => {
    it("makes the slugs from the titles, unique per language", async () => {
      const first = accepted(await createPost(db(), testAdmin, { title: "Hello World", title_de: "Hallo Welt" }));
      const second = accepted(await createPost(db(), testAdmin, { title: "Hello World!" }));
      expect([first.slug, first.slugDe]).toEqual(["hello-world", "hallo-welt"]);
      // No German title: the German version is at a slug made from the English one (free in German).
      expect([second.slug, second.slugDe]).toEqual(["hello-world-2", "hello-world"]);
    });

    it("refuses a typed slug another post has, and one that is not a slug, changing nothing", async () => {
      accepted(await createPost(db(), testAdmin, { title: "One", slug: "taken" }));
      const taken = await createPost(db(), testAdmin, { title: "Two", slug: "taken" });
      expect(taken).toEqual({ ok: false, reason: "invalid", fieldErrors: { slug: "admin.posts.error.slugTaken" } });
      const bad = await createPost(db(), testAdmin, { title: "Two", slug: "no spaces/please" });
      expect(bad).toMatchObject({ ok: false, fieldErrors: { slug: "admin.posts.error.slug" } });
      const noTitle = await createPost(db(), testAdmin, { title: "  " });
      expect(noTitle).toMatchObject({ ok: false, fieldErrors: { title: "admin.content.error.required" } });
      expect((await listPostsForAdmin(db())).map((p) => p.title)).toEqual(["One"]);
      expect((await listAudit(db(), { action: "posts." })).total).toBe(1);
    });

    it("keeps a renamed published post's old slug, which then redirects to the current one", async () => {
      const post = await published({ title: "Old name", title_de: "Alter Name" }, T0);
      accepted(
        await updatePost(db(), testAdmin, post.id, { title: "New name", title_de: "Neuer Name", slug: "new-name" }),
      );
      expect(await findPublishedPostBySlug(db(), "en", "old-name")).toEqual({
        redirectTo: "new-name",
        permanent: true,
      });
      expect(await findPublishedPostBySlug(db(), "en", "new-name")).toMatchObject({ title: "New name" });
      // An empty German slug follows the new German title; the old German slug redirects too.
      expect(await findPublishedPostBySlug(db(), "de", "alter-name")).toEqual({
        redirectTo: "neuer-name",
        permanent: true,
      });
      // A slug of the other language leads to this language's version.
      expect(await findPublishedPostBySlug(db(), "de", "new-name")).toEqual({
        redirectTo: "neuer-name",
        permanent: false,
      });
      expect(await findPublishedPostBySlug(db(), "en", "neuer-name")).toEqual({
        redirectTo: "new-name",
        permanent: false,
      });
      // Nobody else may take the old slug: it still leads to this post.
      const other = await createPost(db(), testAdmin, { title: "Other", slug: "old-name" });
      expect(other).toMatchObject({ ok: false, fieldErrors: { slug: "admin.posts.error.slugTaken" } });
      // Renaming back is allowed.
      accepted(await updatePost(db(), testAdmin, post.id, { title: "Old name", slug: "old-name" }));
      expect(await findPublishedPostBySlug(db(), "en", "new-name")).toEqual({
        redirectTo: "old-name",
        permanent: true,
      });
    });

    it("lets a draft never published forget the slugs nobody could have linked to", async () => {
      const draft = accepted(await createPost(db(), testAdmin, { title: "Working title" }));
      accepted(await updatePost(db(), testAdmin, draft.id, { title: "Final title" }));
      expect((await getPostForAdmin(db(), draft.id))?.slug).toBe("final-title");
      expect(accepted(await createPost(db(), testAdmin, { title: "Working title" })).slug).toBe("working-title");
    });
  });

  describe("status rules", () => {
    it("never shows a draft to visitors: not in any list, not by its address", async () => {
      const draft = accepted(await createPost(db(), testAdmin, { title: "Secret draft", tags: "news" }, { now: T0 }));
      const later = minutes(60);
      expect((await listPublishedPosts(db(), { lang: "en", now: later })).posts).toEqual([]);
      expect((await listPublishedPosts(db(), { lang: "en", tag: "news", now: later })).posts).toEqual([]);
      expect(await listLatestPosts(db(), "en", 3, { now: later })).toEqual([]);
      expect(await listPostsForFeed(db(), "de", 20, { now: later })).toEqual([]);
      expect(await listPostsForSitemap(db(), { now: later })).toEqual([]);
      expect(await listPublishedTags(db(), { now: later })).toEqual([]);
      expect(await hasPublishedPost(db(), { now: later })).toBe(false);
      expect(await findPublishedPostBySlug(db(), "en", draft.slug, { now: later })).toBeNull();
      expect(await findPublishedPostBySlug(db(), "de", draft.slugDe, { now: later })).toBeNull();
      expect(await getAdjacentPosts(db(), draft.id, "en", { now: later })).toEqual({ previous: null, next: null });

      // Published, then back to draft: gone again everywhere.
      accepted(await setPostStatus(db(), testAdmin, draft.id, { status: "published" }, { now: T0 }));
      expect(await hasPublishedPost(db(), { now: later })).toBe(true);
      accepted(await setPostStatus(db(), testAdmin, draft.id, { status: "draft" }, { now: later }));
      expect(await hasPublishedPost(db(), { now: later })).toBe(false);
      expect(await findPublishedPostBySlug(db(), "en", draft.slug, { now: later })).toBeNull();
      expect((await listPublishedPosts(db(), { lang: "en", now: later })).total).toBe(0);
    });

    it("shows a scheduled post from its time on, by the clock it is given", async () => {
      const post = accepted(await createPost(db(), testAdmin, { title: "Tomorrow", tags: "Plans" }, { now: T0 }));
      const scheduled = accepted(
        await setPostStatus(
          db(),
          testAdmin,
          post.id,
          { status: "scheduled", publishAt: minutes(30).toISOString() },
          {
            now: T0,
          },
        ),
      );
      expect(scheduled).toMatchObject({ status: "scheduled", publishAt: minutes(30).toISOString(), visible: false });

      const before = { now: minutes(29) };
      expect(await findPublishedPostBySlug(db(), "en", "tomorrow", before)).toBeNull();
      expect((await listPublishedPosts(db(), { lang: "en", ...before })).posts).toEqual([]);
      expect(await listPostsForFeed(db(), "en", 10, before)).toEqual([]);
      expect(await listPostsForSitemap(db(), before)).toEqual([]);
      expect(await hasPublishedPost(db(), before)).toBe(false);
      expect(await nextScheduledAt(db())).toEqual(minutes(30));
      expect(await publishDuePosts(db(), minutes(29))).toBe(0);

      const after = { now: minutes(30) };
      expect(await findPublishedPostBySlug(db(), "en", "tomorrow", after)).toMatchObject({
        title: "Tomorrow",
        tags: ["plans"],
        publishedAt: minutes(30).toISOString(),
      });
      expect(
        (await listPublishedPosts(db(), { lang: "en", tag: "plans", ...after })).posts.map((p) => p.title),
      ).toEqual(["Tomorrow"]);
      expect(await hasPublishedPost(db(), after)).toBe(true);
      // The scheduler's part: the due post becomes published, once.
      expect(await publishDuePosts(db(), minutes(30))).toBe(1);
      expect(await publishDuePosts(db(), minutes(31))).toBe(0);
      expect((await getPostForAdmin(db(), post.id))?.status).toBe("published");
      expect(await nextScheduledAt(db())).toBeNull();
    });

    it("refuses to schedule in the past and publishes at a future date as scheduled", async () => {
      const post = accepted(await createPost(db(), testAdmin, { title: "Timing" }, { now: T0 }));
      const past = await setPostStatus(
        db(),
        testAdmin,
        post.id,
        { status: "scheduled", publishAt: minutes(-1).toISOString() },
        { now: T0 },
      );
      expect(past).toEqual({
        ok: false,
        reason: "invalid",
        fieldErrors: { publishAt: "admin.posts.error.publishAtPast" },
      });
      const garbage = await setPostStatus(db(), testAdmin, post.id, { status: "scheduled", publishAt: "soon" });
      expect(garbage).toMatchObject({ ok: false, fieldErrors: { publishAt: "admin.posts.error.publishAt" } });
      const unknown = await setPostStatus(db(), testAdmin, post.id, { status: "everywhere" });
      expect(unknown).toMatchObject({ ok: false, reason: "invalid" });
      expect((await getPostForAdmin(db(), post.id))?.status).toBe("draft");

      const future = accepted(
        await setPostStatus(db(), testAdmin, post.id, { status: "published", publishAt: minutes(5) }, { now: T0 }),
      );
      expect(future.status).toBe("scheduled");
      const backDated = accepted(
        await setPostStatus(db(), testAdmin, post.id, { status: "published", publishAt: minutes(-600) }, { now: T0 }),
      );
      expect(backDated).toMatchObject({ status: "published", publishAt: minutes(-600).toISOString(), visible: true });
    });
  });

  describe("public reads", () => {
    it("pages the published posts newest first, 12 a page, in the visitor's language", async () => {
      for (let n = 1; n <= POSTS_PER_PAGE + 2; n++) {
        await published({ title: `Post ${n}`, title_de: `Beitrag ${n}`, body: "one two three" }, minutes(n));
      }
      accepted(await createPost(db(), testAdmin, { title: "Draft" }));
      const first = await listPublishedPosts(db(), { lang: "de", page: 1 });
      expect(first).toMatchObject({ page: 1, pageCount: 2, total: POSTS_PER_PAGE + 2 });
      expect(first.posts).toHaveLength(POSTS_PER_PAGE);
      expect(first.posts[0]).toMatchObject({ title: "Beitrag 14", slug: "beitrag-14", words: 3, readingMinutes: 1 });
      const second = await listPublishedPosts(db(), { lang: "en", page: 2 });
      expect(second.posts.map((p) => p.title)).toEqual(["Post 2", "Post 1"]);
      expect((await listPublishedPosts(db(), { lang: "en", page: 3 })).posts).toEqual([]);
      expect((await listLatestPosts(db(), "en", 3)).map((p) => p.title)).toEqual(["Post 14", "Post 13", "Post 12"]);
    });

    it("links a post to the older and newer ones, and names its author", async () => {
      const author = await createUser(db(), { admin: true, email: "writer@example.test" });
      const actor = { id: author.id, email: author.email };
      const a = accepted(await createPost(db(), actor, { title: "A" }));
      await setPostStatus(db(), actor, a.id, { status: "published" }, { now: minutes(1) });
      const b = await published({ title: "B" }, minutes(2));
      await published({ title: "C", title_de: "C auf Deutsch" }, minutes(3));
      expect(await getAdjacentPosts(db(), b.id, "de")).toEqual({
        previous: { slug: "a", title: "A" },
        next: { slug: "c-auf-deutsch", title: "C auf Deutsch" },
      });
      expect(await getAdjacentPosts(db(), a.id, "en")).toEqual({ previous: null, next: { slug: "b", title: "B" } });
      // No display name set: the part of the e-mail before @.
      expect(await findPublishedPostBySlug(db(), "en", "a")).toMatchObject({ authorName: "writer" });
      await db().updateTable("user").set({ name: "Wendy Writer" }).where("id", "=", author.id).execute();
      expect(await findPublishedPostBySlug(db(), "en", "a")).toMatchObject({ authorName: "Wendy Writer" });
    });

    it("falls back to English where a German field is empty", async () => {
      await published({ title: "Only English", excerpt: "Short", body: "Body text", tags: "A, b ,a" }, T0);
      const post = await findPublishedPostBySlug(db(), "de", "only-english");
      expect(post).toMatchObject({
        title: "Only English",
        excerpt: "Short",
        body: "Body text",
        tags: ["a", "b"],
        slugs: { en: "only-english", de: "only-english" },
      });
      expect(await listPublishedTags(db())).toEqual(["a", "b"]);
    });
  });

  describe("admin writes", () => {
    it("records every write in the audit log with the post's title", async () => {
      const post = accepted(await createPost(db(), testAdmin, { title: "Audited", tags: "x" }, { now: T0 }));
      accepted(await updatePost(db(), testAdmin, post.id, { title: "Audited", body: "New text", tags: "x" }));
      accepted(
        await setPostStatus(db(), testAdmin, post.id, { status: "scheduled", publishAt: minutes(10) }, { now: T0 }),
      );
      accepted(await setPostStatus(db(), testAdmin, post.id, { status: "published" }, { now: T0 }));
      accepted(await setPostStatus(db(), testAdmin, post.id, { status: "draft" }, { now: T0 }));
      expect(await deletePost(db(), testAdmin, post.id)).toEqual({ ok: true, id: post.id });
      expect(await deletePost(db(), testAdmin, post.id)).toEqual({ ok: false, reason: "not-found" });
      const { records } = await listAudit(db(), { action: "posts." });
      expect(records.map((r) => [r.action, r.target, r.actorEmail])).toEqual([
        ["posts.delete", "Audited", testAdmin.email],
        ["posts.unpublish", "Audited", testAdmin.email],
        ["posts.publish", "Audited", testAdmin.email],
        ["posts.schedule", "Audited", testAdmin.email],
        ["posts.update", "Audited", testAdmin.email],
        ["posts.create", "Audited", testAdmin.email],
      ]);
      const update = records.find((r) => r.action === "posts.update");
      expect(JSON.parse(update?.oldValue ?? "")).toEqual({ body: "" });
      expect(JSON.parse(update?.newValue ?? "")).toEqual({ body: "New text" });
      expect(await getPostForAdmin(db(), post.id)).toBeNull();
      expect(await db().selectFrom("post_slugs").selectAll().execute()).toEqual([]);
    });

    it("finds posts by status and by words of their titles or tags", async () => {
      await published({ title: "Rust notes", tags: "programming" }, T0);
      accepted(await createPost(db(), testAdmin, { title: "Garden diary", title_de: "Gartentagebuch" }));
      expect((await listPostsForAdmin(db(), { status: "draft" })).map((p) => p.title)).toEqual(["Garden diary"]);
      expect((await listPostsForAdmin(db(), { search: "GARTEN" })).map((p) => p.title)).toEqual(["Garden diary"]);
      expect((await listPostsForAdmin(db(), { search: "program" })).map((p) => p.title)).toEqual(["Rust notes"]);
      expect(await listPostsForAdmin(db(), { search: "100%" })).toEqual([]);
    });

    it("refuses a cover picture that does not exist", async () => {
      const result = await createPost(db(), testAdmin, { title: "Cover", cover_image_id: "no-such-image" });
      expect(result).toMatchObject({ ok: false, fieldErrors: { cover_image_id: "admin.posts.error.cover" } });
      expect(await listPostsForAdmin(db())).toEqual([]);
    });
  });
});
