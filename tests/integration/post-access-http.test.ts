import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPost, setPostStatus, updatePost } from "#app/domains/posts/post-admin.server.ts";
import type { AdminPost, PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { createShareLink, revokeShareLink } from "#app/domains/shares/share-links.server.ts";
import { dataPathOf } from "#tests/support/admin-routes.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import {
  FAMILY_ONLY,
  MEMBER_READERS,
  MEMBERS_ONLY,
  type MemberReader,
  makeMemberReaders,
} from "#tests/support/member-readers.ts";
import { pageAndData } from "#tests/support/page-and-data.ts";
import { UNKNOWN_SAMPLE, walkedAddresses } from "#tests/support/route-walk.ts";
import { cookiePair, type HttpResponse, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * The leak matrix of posts (issue 21): every public address the route table has (read from app/routes.ts, so a
 * route added later is walked without anyone adding it here), as a page and as React Router's `.data`, for every
 * kind of reader, against posts for everyone, for members and for one group. A post a reader may not see must not
 * show anywhere they look (no title, no tag), and its own addresses must answer exactly as a post that does not
 * exist. Pictures, albums, videos and share links join this matrix as they become restrictable.
 */

const COMMON_WORD = "harbourlight";
const UNKNOWN = UNKNOWN_SAMPLE;

type Reader = MemberReader;
const READERS = MEMBER_READERS;

type ScenePost = { id: string; title: string; word: string; tag: string; slug: string; readers: Reader[] };
type Scene = { posts: ScenePost[]; cookies: Record<Reader, string | undefined> };

function accepted(result: PostWriteResult): AdminPost {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post;
}

/** The parts of an answer that differ between any two requests: the CSP nonce, the request id. */
function normalized(response: HttpResponse, word: string, unknown: string): string {
  return response.body
    .replaceAll(word, unknown)
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/"nonce":"[^"]*"/g, '"nonce":""');
}

describe.each(databaseKinds)("who may see a post, over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let scene: Scene;
  let familyGroup: string;
  let familyReader: string;
  let actor: { id: string; email: string };

  const get = (path: string, reader: Reader) => {
    const cookie = scene.cookies[reader];
    return request(server.url(path), { headers: cookie ? { Cookie: cookie } : {} });
  };

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const db = database.db;
    const readers = await makeMemberReaders(db);
    ({ actor, familyGroup } = readers);
    familyReader = readers.familyUserId;
    const made: ScenePost[] = [];
    const specs = [
      { word: "zephyrquill", tag: "tagzephyr", access: {}, readers: READERS },
      {
        word: "marmotquill",
        tag: "tagmarmot",
        access: { visibility: "members" },
        readers: MEMBERS_ONLY,
      },
      {
        word: "quokkaquill",
        tag: "tagquokka",
        access: { visibility: "groups", group_ids: familyGroup },
        readers: FAMILY_ONLY,
      },
    ];
    for (const spec of specs) {
      const title = `${spec.word} walk`;
      const post = accepted(
        await createPost(db, actor, {
          title,
          excerpt: `About ${spec.word}.`,
          body: `The ${COMMON_WORD} over ${spec.word}.`,
          tags: spec.tag,
          ...spec.access,
        }),
      );
      accepted(await setPostStatus(db, actor, post.id, { status: "published" }));
      made.push({ id: post.id, title, word: spec.word, tag: spec.tag, slug: post.slug, readers: spec.readers });
    }
    scene = { posts: made, cookies: readers.cookies };
    // The server learns of another process's writes by PostgreSQL's notification, a moment later.
    const until = Date.now() + 5000;
    while (!(await get("/blog", "visitor")).body.includes("zephyrquill") && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("walks every public address, page and data, for every reader: nothing shows that the reader may not see", async () => {
    const addresses = walkedAddresses({
      slugs: scene.posts.map((post) => post.slug),
      tags: scene.posts.map((post) => post.tag),
      pictures: [],
      query: COMMON_WORD,
    });
    expect(addresses).toEqual(expect.arrayContaining(["/", "/blog", "/sitemap.xml", "/blog/feed.xml", "/home"]));
    const missing = new Map<string, HttpResponse>();
    const leaks: string[] = [];
    // Signed-in readers first: a page kept for them would then show in the visitors' answers after them.
    const blind: string[] = [];
    for (const reader of READERS) {
      const shown = scene.posts.filter((post) => post.readers.includes(reader)).map((post) => post.word);
      for (const address of addresses) {
        for (const [path, response] of await pageAndData((target) => get(target, reader), address, shown, blind)) {
          if (response.status >= 500) leaks.push(`${reader} ${path}: ${response.status}`);
          for (const post of scene.posts) {
            if (post.readers.includes(reader)) continue;
            const own = [post.slug, post.tag].find((word) => path.includes(word));
            if (own) {
              // Its own address answers as one that never existed: same status, same body.
              const unknown = own === post.slug ? UNKNOWN.slug : UNKNOWN.tag;
              const key = `${reader} ${path.replace(own, unknown)}`;
              if (!missing.has(key)) missing.set(key, await get(path.replace(own, unknown), reader));
              const reference = missing.get(key) as HttpResponse;
              if (response.status !== reference.status) leaks.push(`${reader} ${path}: ${response.status}`);
              else if (normalized(response, own, unknown) !== normalized(reference, unknown, unknown))
                leaks.push(`${reader} ${path}: not the body of a missing one`);
            } else if (response.body.includes(post.word) || response.body.includes(post.tag)) {
              leaks.push(`${reader} ${path} shows ${post.word}`);
            }
          }
        }
      }
    }
    expect({ leaks, blind }).toEqual({ leaks: [], blind: [] });
  });

  it("shows each reader what they may see, with its badge", async () => {
    for (const reader of READERS) {
      const blog = await get("/blog", reader);
      const search = await get(`/search?q=${COMMON_WORD}`, reader);
      for (const post of scene.posts) {
        const may = post.readers.includes(reader);
        expect(blog.body.includes(post.word), `${reader} /blog ${post.word}`).toBe(may);
        expect(search.body.includes(post.word), `${reader} /search ${post.word}`).toBe(may);
        const page = await get(`/blog/${post.slug}`, reader);
        expect(page.status, `${reader} /blog/${post.slug}`).toBe(may ? 200 : 404);
      }
    }
    const family = (await get("/blog", "family")).body;
    expect(family).toContain(">Members<");
    expect(family).toContain(">For Family<");
    // A restricted page is never kept for anyone: the visitors' answer of the same address is a 404 after it.
    const restricted = scene.posts[2] as ScenePost;
    expect((await get(`/blog/${restricted.slug}`, "family")).headers["cache-control"]).toBe("private, no-store");
  });

  it("tells visitors' live streams nothing of a post they may not see", async () => {
    const rows = await database.db
      .selectFrom("change_events")
      .innerJoin("posts", "posts.id", "change_events.entity_id")
      .select(["posts.title", "change_events.audience"])
      .where("change_events.area", "=", "posts")
      .execute();
    const audiences = (word: string) =>
      new Set(rows.filter((row) => row.title.startsWith(word)).map((row) => row.audience));
    expect(audiences("zephyrquill")).toContain("everyone");
    expect([...audiences("marmotquill")].every((audience) => audience !== "everyone")).toBe(true);
    expect(audiences("marmotquill")).toContain("members");
    // A Family post's events go to admins and, when sent, to the members of its groups (issue 42): never members all.
    expect([...audiences("quokkaquill")].every((audience) => ["admins", "groups"].includes(audience))).toBe(true);
    expect(audiences("quokkaquill")).toContain("groups");
  });

  it("takes a post kept for visitors away from them once it is for members, and gives it back", async () => {
    const open = scene.posts[0] as ScenePost;
    /** The visitors' answer once `ready` holds (another process's write reaches the server's cache a moment later). */
    const settled = async (path: string, ready: (response: HttpResponse) => boolean) => {
      const until = Date.now() + 5000;
      let response = await get(path, "visitor");
      while (!ready(response) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        response = await get(path, "visitor");
      }
      return response;
    };
    const page = `/blog/${open.slug}`;
    // Kept by the page cache first: the change must drop it.
    expect((await settled(page, (response) => response.headers["x-vitrine-cache"] === "hit")).status).toBe(200);
    const restrict = (visibility: string) =>
      updatePost(database.db, actor, open.id, { title: open.title, tags: open.tag, visibility });
    expect((await restrict("members")).ok).toBe(true);
    expect((await settled(page, (response) => response.status === 404)).status).toBe(404);
    expect((await settled("/blog/feed.xml", (response) => !response.body.includes(open.word))).body).not.toContain(
      open.word,
    );
    expect((await get(page, "member")).status).toBe(200);
    expect((await restrict("everyone")).ok).toBe(true);
    expect((await settled(page, (response) => response.status === 200)).status).toBe(200);
  });

  it("shows a shared post to whoever holds its link, and nothing beside it; a revoked, expired or locked link shows nothing", async () => {
    const shared = scene.posts[2] as ScenePost;
    const share = async (fields: Record<string, unknown>) => {
      const made = await createShareLink(database.db, actor, {
        kind: "post",
        itemId: shared.id,
        target: shared.title,
        fields,
      });
      if (!made.ok) throw new Error(`refused: ${JSON.stringify(made)}`);
      return made;
    };
    const others = scene.posts.filter((post) => post !== shared);
    const open = await share({});
    const page = await get(open.path, "visitor");
    expect(page.status).toBe(200);
    expect(page.body).toContain(shared.word);
    for (const other of others) expect(page.body, other.word).not.toContain(other.word);
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    expect(page.body).toContain('content="noindex, nofollow"');
    const data = await get(dataPathOf(open.path), "visitor");
    expect(data.body).toContain(shared.word);

    // Each beside an unknown link's answer fetched just before it (the menu it carries may change meanwhile).
    const answersAsUnknown = async (path: string) => {
      const unknown = await get(`/s/${UNKNOWN.share}`, "visitor");
      const response = await get(path, "visitor");
      expect(unknown.status).toBe(404);
      expect(response.status).toBe(404);
      expect(normalized(response, path.slice(3), UNKNOWN.share)).toBe(
        normalized(unknown, UNKNOWN.share, UNKNOWN.share),
      );
    };
    const revoked = await share({});
    await revokeShareLink(database.db, actor, {
      kind: "post",
      itemId: shared.id,
      id: revoked.id,
      target: shared.title,
    });
    await answersAsUnknown(revoked.path);
    const expired = await share({ expires_on: "2099-01-01" });
    await database.db
      .updateTable("share_links")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", expired.id)
      .execute();
    await answersAsUnknown(expired.path);

    const locked = await share({ password: "lighthouse" });
    const asked = await get(locked.path, "visitor");
    expect(asked.status).toBe(200);
    expect(asked.body).not.toContain(shared.word);
    expect(asked.body).toContain("This link asks for a password");
    const send = (password: string) => postForm(server, locked.path, { password });
    const wrong = await send("harbour");
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain(shared.word);
    const right = await send("lighthouse");
    expect(right.status).toBe(303);
    const unlock = right.cookies.find((cookie) => cookie.startsWith("share_"));
    expect(unlock).toMatch(/HttpOnly/);
    const opened = await request(server.url(locked.path), { headers: { Cookie: cookiePair(unlock ?? "") } });
    expect(opened.status).toBe(200);
    expect(opened.body).toContain(shared.word);
    // The unlock is this link's only: another locked link still asks.
    const second = await share({ password: "lighthouse" });
    const other = await request(server.url(second.path), { headers: { Cookie: cookiePair(unlock ?? "") } });
    expect(other.body).not.toContain(shared.word);
    const used = await database.db
      .selectFrom("share_links")
      .select("last_used_at")
      .where("id", "=", open.id)
      .executeTakeFirst();
    expect(used?.last_used_at).not.toBeNull();
  });

  it("offers a member what is new for them since their last visit on the home page", async () => {
    // The family reader's session last active two hours ago: this request starts a new visit.
    await database.db
      .updateTable("session")
      .set({ updatedAt: new Date(Date.now() - 2 * 3_600_000) })
      .where("userId", "=", familyReader)
      .execute();
    const home = await get("/home", "family");
    const at = home.body.indexOf('id="home-new"');
    expect(at).toBeGreaterThan(0);
    const section = home.body.slice(at, home.body.indexOf("</section>", at));
    for (const post of scene.posts) expect(section, post.word).toContain(post.word);
    // Nobody else has ended a visit since: no section (the dictionary every page carries names it, the page does not).
    expect((await get("/home", "member")).body).not.toContain('id="home-new"');
    expect((await get("/home", "visitor")).body).not.toContain('id="home-new"');
  });

  it("takes a group's posts away from a member removed from it, at their next request", async () => {
    const restricted = scene.posts[2] as ScenePost;
    expect((await get(`/blog/${restricted.slug}`, "family")).status).toBe(200);
    await database.db.deleteFrom("user_groups").where("user_id", "=", familyReader).execute();
    expect((await get(`/blog/${restricted.slug}`, "family")).status).toBe(404);
    expect((await get("/blog", "family")).body).not.toContain(restricted.word);
    await database.db.insertInto("user_groups").values({ user_id: familyReader, group_id: familyGroup }).execute();
    expect((await get(`/blog/${restricted.slug}`, "family")).status).toBe(200);
  });
});
