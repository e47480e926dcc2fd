import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { createShareLink, revokeShareLink } from "#app/domains/shares/share-links.server.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import {
  FAMILY_ONLY,
  MEMBER_READERS,
  type MemberReader,
  makeMemberReaders,
  readerRequests,
  storedFileUrl,
} from "#tests/support/member-readers.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import { cookiePair, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * A post's own pictures (issue 21): the cover and the pictures in the text of a post that is not for everyone live
 * in member folders, answered only to those who may read the post (or hold an open share link of it), never at the
 * public names they had; made public again, they get public names back. Everything through the admin's own screens
 * over HTTP, as the editor sends it.
 */
describe.each(databaseKinds)("a restricted post's pictures, over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let cookies: Record<MemberReader, string | undefined>;
  let familyGroup: string;
  const { get, settled } = readerRequests(
    () => server,
    () => cookies,
  );

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ cookies, familyGroup } = await makeMemberReaders(database.db));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  const upload = async (name: string): Promise<string> => {
    const data = await testPhoto({ width: 900, height: 600, label: name });
    const part = { field: "file", filename: name, type: "image/jpeg", data };
    const response = await postMultipart(server, "/admin/uploads/posts", [part], {
      cookie: cookies.admin,
      accept: "application/json",
    });
    expect(response.status, response.body).toBe(200);
    return JSON.parse(response.body).id as string;
  };
  /** Every stored size and format of an image, by address, and the member folder they are in (null: public). */
  const filesOf = async (imageId: string) => {
    const row = await database.db
      .selectFrom("images")
      .select(["variants", "private_folder"])
      .where("id", "=", imageId)
      .executeTakeFirstOrThrow();
    const urls = parseVariants(row.variants).map((variant) => storedFileUrl(variant.key));
    expect(urls.length).toBeGreaterThan(3);
    return { urls, folder: row.private_folder };
  };
  const save = async (id: string, intent: string, fields: Record<string, string>) => {
    const response = await postForm(server, `/admin/posts/${id}`, { intent, ...fields }, { cookie: cookies.admin });
    // A new post's editor goes on at the post's address (303); an existing one's answers its page (a refusal: 4xx).
    expect(response.status, response.body.slice(0, 300)).toBe(id === "new" ? 303 : 200);
    return (response.headers.location ?? "").split("/").pop()?.split("?")[0] ?? "";
  };
  /** The status each reader gets for each address, `reader status` per address. */
  const statuses = async (urls: string[], extra: Record<string, string> = {}) => {
    const seen: string[] = [];
    for (const url of urls) {
      for (const reader of MEMBER_READERS) {
        const cookie = [cookies[reader], extra[reader]].filter(Boolean).join("; ");
        const response = await request(server.url(url), { headers: cookie ? { Cookie: cookie } : {} });
        seen.push(`${reader} ${response.status}`);
        if (response.status === 200) expect(response.headers["cache-control"], url).not.toMatch(/public/);
      }
    }
    return [...new Set(seen)].sort();
  };
  const answering = (readers: MemberReader[]) =>
    MEMBER_READERS.map((reader) => `${reader} ${readers.includes(reader) ? 200 : 404}`).sort();

  it("moves a group post's cover and text pictures to member folders, answered to its readers only, and back", async () => {
    const [cover, inline] = [await upload("lake.jpg"), await upload("boat.jpg")];
    const publicUrls = [...(await filesOf(cover)).urls, ...(await filesOf(inline)).urls];
    const fields = {
      title: "Lake weekend",
      excerpt: "Only for the family",
      body: `We rowed out.\n\n![The boat](image:${inline})`,
      cover_image_id: cover,
      cover_alt: "The lake at dawn",
      visibility: "groups",
      group_ids: familyGroup,
    };
    const postId = await save("new", "publish", fields);
    const { slug } = await database.db
      .selectFrom("posts")
      .select("slug")
      .where("id", "=", postId)
      .executeTakeFirstOrThrow();

    const [coverFiles, inlineFiles] = [await filesOf(cover), await filesOf(inline)];
    expect(coverFiles.folder).toMatch(/^[0-9a-f]{48}$/);
    expect(inlineFiles.folder).toMatch(/^[0-9a-f]{48}$/);
    expect(inlineFiles.folder).not.toBe(coverFiles.folder);
    const memberUrls = [...coverFiles.urls, ...inlineFiles.urls];
    expect(memberUrls.every((url) => url.startsWith("/media/members/"))).toBe(true);
    // The public names the upload gave them answer no one any more, in any size or format.
    expect(await statuses(publicUrls)).toEqual(MEMBER_READERS.map((reader) => `${reader} 404`).sort());
    // The new names: the family and the admin, no one else.
    expect(await statuses(memberUrls)).toEqual(answering(FAMILY_ONLY));
    // The family's page names them (its cover and its text), never a public name.
    const page = await get(`/blog/${slug}`, "family");
    expect(page.status).toBe(200);
    for (const folder of [coverFiles.folder, inlineFiles.folder])
      expect(page.body).toContain(`/media/members/${folder}/`);
    expect(page.body).not.toContain(`/media/images/${cover}/`);
    expect(page.body).not.toContain(`/media/images/${inline}/`);

    // A share link of the post opens its pictures to the browser that opened it, while the link is open.
    const made = await createShareLink(database.db, testAdmin, {
      kind: "post",
      itemId: postId,
      target: fields.title,
      fields: {},
    });
    if (!made.ok) throw new Error(`refused: ${JSON.stringify(made)}`);
    const shared = await request(server.url(made.path));
    expect(shared.status).toBe(200);
    const filesCookie = shared.cookies.find((cookie) => cookie.startsWith("share_files_"));
    expect(filesCookie).toMatch(/Path=\/media\/members\/;.*HttpOnly/);
    const stranger = { visitor: cookiePair(filesCookie ?? "") };
    const withLink = await statuses(memberUrls, stranger);
    expect(withLink).toEqual(answering([...FAMILY_ONLY, "visitor"]));
    // …and not the pictures of another restricted post.
    const other = await upload("secret.jpg");
    await save("new", "publish", { title: "Other", cover_image_id: other, visibility: "members" });
    const otherFiles = await filesOf(other);
    expect(otherFiles.folder).not.toBeNull();
    expect((await statuses(otherFiles.urls, stranger)).filter((seen) => seen.startsWith("visitor"))).toEqual([
      "visitor 404",
    ]);
    const revoke = { kind: "post" as const, itemId: postId, id: made.id, target: fields.title };
    expect(await revokeShareLink(database.db, testAdmin, revoke)).toBe(true);
    expect(await statuses(memberUrls, stranger)).toEqual(answering(FAMILY_ONLY));

    // Made for everyone: public names again, the member folders' addresses answer no one.
    await save(postId, "save", { ...fields, visibility: "everyone", group_ids: "" });
    const [openCover, openInline] = [await filesOf(cover), await filesOf(inline)];
    expect([openCover.folder, openInline.folder]).toEqual([null, null]);
    const openUrls = [...openCover.urls, ...openInline.urls];
    expect(openUrls.every((url) => url.startsWith("/media/images/"))).toBe(true);
    expect(await statuses(memberUrls)).toEqual(MEMBER_READERS.map((reader) => `${reader} 404`).sort());
    const visitorFile = await get(openUrls[0] ?? "", "visitor");
    expect(visitorFile.status).toBe(200);
    expect(visitorFile.headers["cache-control"]).toMatch(/public/);
    const visitorPage = await settled(`/blog/${slug}`, "visitor", (response) => response.status === 200);
    expect(visitorPage.body).toContain(`/media/images/${cover}/`);

    // A picture a post for everyone shows stays public when a restricted post shows it too.
    await save("new", "publish", { title: "Members' copy", cover_image_id: cover, visibility: "members" });
    expect((await filesOf(cover)).folder).toBeNull();
  });
});
