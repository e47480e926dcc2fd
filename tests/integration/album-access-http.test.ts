import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { albumFieldsSchema } from "#app/domains/albums/album-schema.ts";
import { addAlbumPictures, createAlbum, updateAlbum } from "#app/domains/albums/albums.server.ts";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { createShareLink, revokeShareLink } from "#app/domains/shares/share-links.server.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import {
  FAMILY_ONLY,
  MEMBER_READERS,
  MEMBERS_ONLY,
  type MemberReader,
  makeMemberReaders,
  readerRequests,
  storedFileUrl,
} from "#tests/support/member-readers.ts";
import { pageAndData } from "#tests/support/page-and-data.ts";
import { UNKNOWN_SAMPLE, walkedAddresses } from "#tests/support/route-walk.ts";
import { cookiePair, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * The leak matrix of albums (issue 21): every public address of the route table, page and `.data`, and every stored
 * file of every picture of every album, for every kind of reader, against albums for everyone, for members and for
 * one group. An album a reader may not see shows nowhere (no title, no slug, no id), its address answers exactly as
 * a missing album's, and its pictures that the reader may not see otherwise show nowhere either and their files
 * answer as missing files do. A picture shown through an album is for whoever may see the album.
 */

type Reader = MemberReader;
const READERS = MEMBER_READERS;

type SceneAlbum = { id: string; slug: string; word: string; readers: Reader[]; pictures: string[] };

const fields = (input: Record<string, string | undefined>) => albumFieldsSchema.parse(input);

describe.each(databaseKinds)("who may see an album, over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let storage: FileStorage;
  let albums: SceneAlbum[];
  let cookies: Record<Reader, string | undefined>;
  let familyReader: string;
  let familyGroup: string;
  /** Each restricted picture's word and who may see it in the end (itself or through an album). */
  let pictureReaders: Map<string, { word: string; readers: Reader[] }>;

  const { get, settled } = readerRequests(
    () => server,
    () => cookies,
  );
  const filesOf = async (id: string) => {
    const row = await database.db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select(["i.variants", "i.private_folder"])
      .where("g.id", "=", id)
      .executeTakeFirstOrThrow();
    return {
      urls: parseVariants(row.variants).map((variant) => storedFileUrl(variant.key)),
      folder: row.private_folder,
    };
  };

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const db = database.db;
    storage = storageIn(database.location.dataDir);
    const readers = await makeMemberReaders(db);
    ({ cookies, familyGroup } = readers);
    familyReader = readers.familyUserId;
    const picture = async (word: string, hue: number, access: Record<string, string> | null) => {
      const id = await createGalleryPicture(db, storage, {
        title: `${word} view`,
        published: true,
        hue,
        width: 1200,
        height: 800,
      });
      for (let tries = 0; access; tries++) {
        const result = await setPictureAccess(db, storage, readers.actor, id, access);
        if (result.ok) break;
        if (result.reason !== "busy" || tries >= 50) throw new Error(`refused: ${JSON.stringify(result)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return id;
    };
    // A picture for everyone; one for members shown through the public album (so to everyone); one for Family in
    // the members' album (so to members); one for Family in Family's album.
    const open = await picture("zebrafell", 20, null);
    const throughPublic = await picture("lynxfell", 140, { visibility: "members" });
    const throughMembers = await picture("otterfell", 260, { visibility: "groups", group_ids: familyGroup });
    const familyOnly = await picture("koalafell", 320, { visibility: "groups", group_ids: familyGroup });
    pictureReaders = new Map([
      [throughPublic, { word: "lynxfell", readers: READERS }],
      [throughMembers, { word: "otterfell", readers: MEMBERS_ONLY }],
      [familyOnly, { word: "koalafell", readers: FAMILY_ONLY }],
    ]);
    const specs = [
      { word: "quokkalbum", access: {}, readers: READERS, pictures: [open, throughPublic] },
      { word: "wombalbum", access: { visibility: "members" }, readers: MEMBERS_ONLY, pictures: [throughMembers] },
      {
        word: "dingoalbum",
        access: { visibility: "groups", group_ids: familyGroup },
        readers: FAMILY_ONLY,
        pictures: [familyOnly],
      },
    ];
    albums = [];
    for (const spec of specs) {
      const made = await createAlbum(db, readers.actor, fields({ title: `${spec.word} days`, ...spec.access }));
      if (!made.ok) throw new Error(JSON.stringify(made));
      await addAlbumPictures(db, readers.actor, made.id, spec.pictures);
      albums.push({
        id: made.id,
        slug: `${spec.word}-days`,
        word: spec.word,
        readers: spec.readers,
        pictures: spec.pictures,
      });
    }
    await settled("/albums", "visitor", (response) => response.body.includes("quokkalbum"));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("walks every public address, page and data, for every reader: no album or picture shows that it may not see", async () => {
    const pictureIds = [...pictureReaders.keys()];
    const addresses = walkedAddresses({
      slugs: [],
      tags: [],
      pictures: pictureIds,
      query: "view",
      albums: albums.map((album) => album.slug),
    });
    const secrets: { readers: Reader[]; values: string[]; slug?: string }[] = [
      ...albums.map((album) => ({ readers: album.readers, values: [album.word, album.id], slug: album.slug })),
      ...(await Promise.all(
        [...pictureReaders].map(async ([id, picture]) => ({
          readers: picture.readers,
          values: [picture.word, id, (await filesOf(id)).folder ?? id],
        })),
      )),
    ];
    const leaks: string[] = [];
    const blind: string[] = [];
    for (const reader of READERS) {
      const shown = secrets
        .filter((secret) => secret.readers.includes(reader))
        .map((secret) => secret.values[0] as string);
      for (const address of addresses) {
        for (const [path, response] of await pageAndData((target) => get(target, reader), address, shown, blind)) {
          if (response.status >= 500) leaks.push(`${reader} ${path}: ${response.status}`);
          for (const secret of secrets) {
            if (secret.readers.includes(reader)) continue;
            if (secret.slug && path.includes(`/albums/${secret.slug}`)) {
              // The address of an album the reader may not see answers as a missing album's does.
              const other = path.replace(secret.slug, UNKNOWN_SAMPLE.album);
              const reference = await get(other, reader);
              const same = (body: string) => body.replaceAll(/nonce="[^"]*"|"nonce":"[^"]*"/g, "");
              if (response.status !== reference.status) leaks.push(`${reader} ${path}: ${response.status}`);
              else if (same(response.body.replaceAll(secret.slug, UNKNOWN_SAMPLE.album)) !== same(reference.body))
                leaks.push(`${reader} ${path}: not the answer of a missing album`);
              continue;
            }
            for (const value of secret.values) {
              // A picture's own id in the address (a shared `?image=`) is the reader's, not the page's.
              if (path.includes(value)) continue;
              if (response.body.includes(value)) leaks.push(`${reader} ${path} shows ${value}`);
            }
          }
        }
      }
    }
    expect({ leaks, blind }).toEqual({ leaks: [], blind: [] });
    // The sitemap lists the album for everyone at both its addresses (the walk above saw it name no other).
    const sitemap = (await get("/sitemap.xml", "visitor")).body;
    expect(sitemap).toContain("/albums/quokkalbum-days</loc>");
    expect(sitemap).toContain('hreflang="de" href="http://');
    // And each reader does see what they may: every album's word on /albums and on its own page.
    for (const album of albums) {
      for (const reader of album.readers) {
        expect((await get("/albums", reader)).body, `${reader} /albums`).toContain(album.word);
        expect((await get(`/albums/${album.slug}`, reader)).status, `${reader} ${album.slug}`).toBe(200);
      }
    }
  });

  it("serves every file of an album's pictures to whoever may see it, privately, and to no one else", async () => {
    const wrong: string[] = [];
    for (const [id, picture] of pictureReaders) {
      const files = await filesOf(id);
      expect(files.urls.every((url) => url.startsWith("/media/members/"))).toBe(true);
      for (const reader of READERS) {
        const may = picture.readers.includes(reader);
        for (const url of files.urls) {
          const response = await get(url, reader);
          if (response.status !== (may ? 200 : 404)) wrong.push(`${reader} ${picture.word} ${url}: ${response.status}`);
          const cacheControl = String(response.headers["cache-control"]);
          if (may && cacheControl !== "private, no-cache") wrong.push(`${url}: ${cacheControl}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("takes an album away at once from a member who leaves its group, and from visitors when it is restricted", async () => {
    const family = albums[2] as SceneAlbum;
    const file = (await filesOf(family.pictures[0] as string)).urls[0] as string;
    expect((await get(`/albums/${family.slug}`, "family")).status).toBe(200);
    await database.db.deleteFrom("user_groups").where("user_id", "=", familyReader).execute();
    expect((await get(`/albums/${family.slug}`, "family")).status).toBe(404);
    expect((await get(file, "family")).status).toBe(404);
    await database.db.insertInto("user_groups").values({ user_id: familyReader, group_id: familyGroup }).execute();
    expect((await get(file, "family")).status).toBe(200);

    const open = albums[0] as SceneAlbum;
    const shownThrough = (await filesOf(open.pictures[1] as string)).urls[0] as string;
    expect((await get(shownThrough, "visitor")).status).toBe(200);
    const actor = { id: "admin-test", email: "admin@example.test" };
    const changed = await updateAlbum(
      database.db,
      actor,
      open.id,
      fields({ title: "quokkalbum days", visibility: "members" }),
    );
    expect(changed.ok).toBe(true);
    const gone = await settled(`/albums/${open.slug}`, "visitor", (response) => response.status === 404);
    expect(gone.status).toBe(404);
    expect((await get("/albums", "visitor")).body).not.toContain("quokkalbum");
    expect((await get(shownThrough, "visitor")).status).toBe(404);
    expect((await get(shownThrough, "member")).status).toBe(200);
  });
  it("shows a shared album, files too, to whoever holds its link and nothing beside it; a revoked, expired or locked link shows nothing", async () => {
    const family = albums[2] as SceneAlbum;
    const actor = { id: "admin-test", email: "admin@example.test" };
    const share = async (fields: Record<string, unknown>) => {
      const made = await createShareLink(database.db, actor, {
        kind: "album",
        itemId: family.id,
        target: "dingoalbum days",
        fields,
      });
      if (!made.ok) throw new Error(`refused: ${JSON.stringify(made)}`);
      return made;
    };
    const file = (await filesOf(family.pictures[0] as string)).urls[0] as string;
    const stranger = (path: string, cookie?: string) =>
      request(server.url(path), { headers: cookie ? { Cookie: cookie } : {} });
    const open = await share({});
    const page = await stranger(open.path);
    expect(page.status).toBe(200);
    expect(page.body).toContain("dingoalbum");
    expect(page.body).toContain("koalafell");
    // Not the other albums, nor their pictures, nor whom the album is for.
    for (const other of ["quokkalbum", "wombalbum", "otterfell", "lynxfell", "zebrafell", "Family"]) {
      expect(page.body, other).not.toContain(other);
    }
    expect(page.headers["cache-control"]).toBe("private, no-store");
    // Another album's picture named in the address opens nothing.
    const otherPicture = (albums[1] as SceneAlbum).pictures[0] as string;
    const asked = await stranger(`${open.path}?image=${otherPicture}`);
    expect(asked.body).not.toContain("otterfell");
    // The restricted picture's files with the link's files cookie only, and only while the link is open.
    const grant = page.cookies.find((cookie) => cookie.startsWith("share_files_"));
    expect(grant).toMatch(/Path=\/media\/members\/; .*HttpOnly/);
    expect((await stranger(file)).status).toBe(404);
    expect((await stranger(file, cookiePair(grant ?? ""))).status).toBe(200);
    const elsewhere = (await filesOf((albums[1] as SceneAlbum).pictures[0] as string)).urls[0] as string;
    expect((await stranger(elsewhere, cookiePair(grant ?? ""))).status).toBe(404);
    await revokeShareLink(database.db, actor, { kind: "album", itemId: family.id, id: open.id, target: "x" });
    expect((await stranger(file, cookiePair(grant ?? ""))).status).toBe(404);

    const asMissing = async (path: string) => {
      const unknown = await stranger(`/s/${UNKNOWN_SAMPLE.share}`);
      const response = await stranger(path);
      expect(response.status).toBe(404);
      const same = (body: string) => body.replaceAll(/nonce="[^"]*"|"nonce":"[^"]*"/g, "");
      expect(same(response.body.replaceAll(path.slice(3), UNKNOWN_SAMPLE.share))).toBe(same(unknown.body));
    };
    await asMissing(open.path);
    const expired = await share({ expires_on: "2099-01-01" });
    await database.db
      .updateTable("share_links")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", expired.id)
      .execute();
    await asMissing(expired.path);

    const locked = await share({ password: "lighthouse" });
    const question = await stranger(locked.path);
    expect(question.status).toBe(200);
    expect(question.body).not.toContain("dingoalbum");
    expect(question.cookies.some((cookie) => cookie.startsWith("share_files_"))).toBe(false);
    const wrong = await postForm(server, locked.path, { password: "harbour" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain("dingoalbum");
    const right = await postForm(server, locked.path, { password: "lighthouse" });
    expect(right.status).toBe(303);
    const unlock = right.cookies.find((cookie) => cookie.startsWith("share_"));
    const opened = await stranger(locked.path, cookiePair(unlock ?? ""));
    expect(opened.body).toContain("koalafell");
  });
});
