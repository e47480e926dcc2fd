import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Reader } from "#app/domains/access/reader.ts";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { searchSite } from "#app/domains/search/search.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createPost, getPostForAdmin, setPostStatus, updatePost } from "./post-admin.server.ts";
import { renderPostBody } from "./post-body.server.ts";
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
import type { PostWriteResult } from "./post-rows.server.ts";

/*
 * Who may see a post (issue 21): every public read of the blog, for each kind of reader. The HTTP surfaces (pages,
 * .data, feeds, sitemap, search, media) are asserted by tests/integration/post-access.test.ts.
 */

function accepted(result: PostWriteResult) {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

const T0 = new Date("2026-03-01T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const now = at(100);

describe.each(databaseKinds)("who may see a post (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const gallery = useGalleryTestStorage(db);

  async function group(name: string): Promise<string> {
    const id = randomUUID();
    await db().insertInto("member_groups").values({ id, name, created_at: T0 }).execute();
    return id;
  }

  async function published(title: string, minute: number, access: Record<string, unknown> = {}) {
    const post = accepted(await createPost(db(), testAdmin, { title, tags: "walks", ...access }, { now: at(minute) }));
    await setPostStatus(db(), testAdmin, post.id, { status: "published" }, { now: at(minute) });
    return post;
  }

  /** Four posts, oldest first: for everyone, members, Family, Friends; and who reads them. */
  async function scene() {
    const family = await group("Family");
    const friends = await group("Friends");
    const open = await published("Open harbour", 1);
    const members = await published("Members harbour", 2, { visibility: "members" });
    const familyPost = await published("Family harbour", 3, { visibility: "groups", group_ids: family });
    const friendsPost = await published("Friends harbour", 4, { visibility: "groups", group_ids: friends });
    const member = await createUser(db());
    const readers: Record<string, Reader> = {
      visitor: { kind: "visitor" },
      member: { kind: "member", userId: member.id, groupIds: [] },
      family: { kind: "member", userId: member.id, groupIds: [family] },
      both: { kind: "member", userId: member.id, groupIds: [family, friends] },
      admin: { kind: "admin", userId: testAdmin.id },
    };
    return { family, friends, posts: { open, members, familyPost, friendsPost }, readers };
  }

  it("lists, finds, neighbours and searches only what each reader may see", async () => {
    const { posts, readers } = await scene();
    const expected: Record<string, string[]> = {
      visitor: ["Open harbour"],
      member: ["Members harbour", "Open harbour"],
      family: ["Family harbour", "Members harbour", "Open harbour"],
      both: ["Friends harbour", "Family harbour", "Members harbour", "Open harbour"],
      admin: ["Friends harbour", "Family harbour", "Members harbour", "Open harbour"],
    };
    for (const [name, reader] of Object.entries(readers)) {
      const titles = expected[name] ?? [];
      const list = await listPublishedPosts(db(), { lang: "en", reader, now });
      expect(
        list.posts.map((post) => post.title),
        name,
      ).toEqual(titles);
      expect(list.total, name).toBe(titles.length);
      const tagged = await listPublishedPosts(db(), { lang: "en", tag: "walks", reader, now });
      expect(tagged.total, name).toBe(titles.length);
      expect((await listLatestPosts(db(), "en", 10, { reader, now })).map((post) => post.title)).toEqual(titles);
      for (const post of Object.values(posts)) {
        const found = await findPublishedPostBySlug(db(), "en", post.slug, { reader, now });
        expect(found !== null, `${name} reads ${post.title}`).toBe(titles.includes(post.title));
      }
      // The neighbours of the open post: the newer one this reader may see, never one they may not.
      const adjacent = await getAdjacentPosts(db(), posts.open.id, "en", { reader, now });
      expect(adjacent.next?.title ?? null, name).toBe(titles.at(-2) ?? null);
      const found = await searchSite(db(), { lang: "en", query: "harbour", page: 1, audience: reader, now });
      expect(found.hits.map((hit) => hit.title).toSorted(), name).toEqual(titles.toSorted());
      expect(found.total, name).toBe(titles.length);
    }
  });

  it("keeps restricted posts out of the feeds, the sitemap and the visitors' menu and tags", async () => {
    const { readers } = await scene();
    expect((await listPostsForFeed(db(), "en", 10, { now })).map((post) => post.title)).toEqual(["Open harbour"]);
    expect((await listPostsForSitemap(db(), { now })).map((post) => post.title.en)).toEqual(["Open harbour"]);
    // The open post for members too: a visitor then has no blog in the menu and no tags, a member has both.
    expect(await hasPublishedPost(db(), { now })).toBe(true);
    const open = await findPublishedPostBySlug(db(), "en", "open-harbour", { now });
    if (!open || "redirectTo" in open) throw new Error("no open post");
    accepted(
      await updatePost(db(), testAdmin, open.id, { title: "Open harbour", tags: "walks", visibility: "members" }),
    );
    expect(await listPostsForFeed(db(), "en", 10, { now })).toEqual([]);
    expect(await listPublishedTags(db(), { now })).toEqual([]);
    expect(await listPublishedTags(db(), { now, reader: readers.member })).toEqual(["walks"]);
    expect(await hasPublishedPost(db(), { now })).toBe(false);
    expect(await hasPublishedPost(db(), { now, reader: readers.member })).toBe(true);
  });

  it("checks the groups a save names, keeps them on a save without the field, and audits the change", async () => {
    const { family, posts } = await scene();
    const none = await updatePost(db(), testAdmin, posts.open.id, { title: "Open harbour", visibility: "groups" });
    expect(none).toMatchObject({ ok: false, fieldErrors: { group_ids: "admin.posts.error.groupsNeeded" } });
    const unknown = await updatePost(db(), testAdmin, posts.open.id, {
      title: "Open harbour",
      visibility: "groups",
      group_ids: `${family},no-such-group`,
    });
    expect(unknown).toMatchObject({ ok: false, fieldErrors: { group_ids: "admin.posts.error.groups" } });
    const wrong = await updatePost(db(), testAdmin, posts.open.id, { title: "Open harbour", visibility: "friends" });
    expect(wrong).toMatchObject({ ok: false, fieldErrors: { visibility: "admin.posts.error.visibility" } });
    expect((await getPostForAdmin(db(), posts.open.id))?.visibility).toBe("everyone");

    // A save without the field (an editor of before it) keeps who may see the post.
    await updatePost(db(), testAdmin, posts.familyPost.id, { title: "Family harbour, again" });
    const kept = await getPostForAdmin(db(), posts.familyPost.id);
    expect([kept?.visibility, kept?.groupIds]).toEqual(["groups", [family]]);

    await updatePost(db(), testAdmin, posts.familyPost.id, { title: "Family harbour, again", visibility: "members" });
    const opened = await getPostForAdmin(db(), posts.familyPost.id);
    expect([opened?.visibility, opened?.groupIds]).toEqual(["members", []]);
    const [entry] = (await listAudit(db(), { action: "posts.update" })).records;
    expect(JSON.parse(entry?.oldValue ?? "{}")).toMatchObject({ visibility: "groups: Family" });
    expect(JSON.parse(entry?.newValue ?? "{}")).toMatchObject({ visibility: "members" });
  });

  it("names a post's groups only as far as its reader is in them", async () => {
    const { family, friends, readers } = await scene();
    await published("Both harbour", 5, { visibility: "groups", group_ids: `${family},${friends}` });
    const groupsOf = async (reader: Reader) =>
      (await listPublishedPosts(db(), { lang: "en", reader, now })).posts.find((post) => post.title === "Both harbour")
        ?.groups;
    expect(await groupsOf(readers.family as Reader)).toEqual(["Family"]);
    expect(await groupsOf(readers.both as Reader)).toEqual(["Family", "Friends"]);
    expect(await groupsOf(readers.admin as Reader)).toEqual(["Family", "Friends"]);
  });

  it("shows no restricted gallery picture through a post's text", async () => {
    const picture = await gallery.add({ title: "Private shore", published: true });
    const row = await db()
      .selectFrom("gallery_images")
      .select("image_id")
      .where("id", "=", picture)
      .executeTakeFirstOrThrow();
    const body = `![shore](image:${row.image_id})`;
    expect((await renderPostBody(body, "en", { db: db() })).html).toContain("<picture>");
    expect((await setPictureAccess(db(), gallery.storage, testAdmin, picture, { visibility: "members" })).ok).toBe(
      true,
    );
    expect((await renderPostBody(body, "en", { db: db() })).html).not.toContain("<picture>");
  });

  it("forgets a deleted group: its posts are then for admins only, not for everyone", async () => {
    const { family, posts, readers } = await scene();
    await db().deleteFrom("member_groups").where("id", "=", family).execute();
    const post = await getPostForAdmin(db(), posts.familyPost.id);
    expect([post?.visibility, post?.groupIds]).toEqual(["groups", []]);
    for (const reader of [readers.visitor, readers.family, readers.member]) {
      expect(await findPublishedPostBySlug(db(), "en", posts.familyPost.slug, { reader, now })).toBeNull();
    }
    expect(
      await findPublishedPostBySlug(db(), "en", posts.familyPost.slug, { reader: readers.admin, now }),
    ).not.toBeNull();
  });
});
