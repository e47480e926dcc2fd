import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
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
import type { HttpResponse, ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * The leak matrix of gallery pictures (issue 21): every public address of the route table (tests/support/route-walk.ts),
 * page and `.data`, and every stored file of every size and format by its address, for every kind of reader, against
 * pictures for everyone, for members and for one group. A picture a reader may not see shows nowhere (no title, no id,
 * no file address), its files answer as missing files do, and its files' public addresses of before stop answering.
 */

type Reader = MemberReader;
const READERS = MEMBER_READERS;

type ScenePicture = { id: string; word: string; readers: Reader[]; publicUrls: string[] };

const WORD_HUE = { zebrafell: 20, lynxfell: 140, otterfell: 260 } as const;

describe.each(databaseKinds)("who may see a picture, over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let storage: FileStorage;
  let actor: { id: string; email: string };
  let pictures: ScenePicture[];
  let cookies: Record<Reader, string | undefined>;
  let familyGroup: string;
  let familyReader: string;

  const { get, settled } = readerRequests(
    () => server,
    () => cookies,
  );
  const filesOf = async (id: string) => {
    const row = await database.db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select(["i.variants", "i.private_folder", "i.id"])
      .where("g.id", "=", id)
      .executeTakeFirstOrThrow();
    return { urls: parseVariants(row.variants).map((variant) => storedFileUrl(variant.key)), ...row };
  };
  /** As the admin would: "busy" (its sizes still being made, here or by the server's worker) is tried again. */
  const access = async (id: string, fields: Record<string, string>) => {
    for (let tries = 0; ; tries++) {
      const result = await setPictureAccess(database.db, storage, actor, id, fields);
      if (result.ok) return;
      if (result.reason !== "busy" || tries >= 50) throw new Error(`refused: ${JSON.stringify(result)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const db = database.db;
    storage = storageIn(database.location.dataDir);
    const readers = await makeMemberReaders(db);
    ({ actor, familyGroup, cookies } = readers);
    familyReader = readers.familyUserId;
    const specs: { word: keyof typeof WORD_HUE; fields: Record<string, string> | null; readers: Reader[] }[] = [
      { word: "zebrafell", fields: null, readers: READERS },
      { word: "lynxfell", fields: { visibility: "members" }, readers: MEMBERS_ONLY },
      { word: "otterfell", fields: { visibility: "groups", group_ids: familyGroup }, readers: FAMILY_ONLY },
    ];
    pictures = [];
    for (const spec of specs) {
      const id = await createGalleryPicture(db, storage, {
        title: `${spec.word} shore`,
        published: true,
        hue: WORD_HUE[spec.word],
        width: 1400,
        height: 900,
      });
      const publicUrls = (await filesOf(id)).urls;
      if (spec.fields) await access(id, spec.fields);
      pictures.push({ id, word: spec.word, readers: spec.readers, publicUrls });
    }
    await settled("/", "visitor", (response) => response.body.includes("zebrafell"));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("walks every public address, page and data, for every reader: nothing shows that the reader may not see", async () => {
    const addresses = walkedAddresses({ slugs: [], tags: [], pictures: pictures.map((p) => p.id), query: "shore" });
    const folders = new Map<string, string>();
    for (const picture of pictures) {
      const files = await filesOf(picture.id);
      folders.set(picture.id, files.private_folder ?? files.id);
    }
    const leaks: string[] = [];
    const missing = new Map<string, HttpResponse>();
    const blind: string[] = [];
    for (const reader of READERS) {
      const shown = pictures.filter((picture) => picture.readers.includes(reader)).map((picture) => picture.word);
      for (const address of addresses) {
        for (const [path, response] of await pageAndData((target) => get(target, reader), address, shown, blind)) {
          if (response.status >= 500) leaks.push(`${reader} ${path}: ${response.status}`);
          for (const picture of pictures) {
            if (picture.readers.includes(reader)) continue;
            if (path.includes(picture.id)) {
              // A shared link to a picture the reader may not see opens the gallery as an unknown picture's does.
              const other = path.replace(picture.id, UNKNOWN_SAMPLE.picture);
              if (!missing.has(`${reader} ${other}`)) missing.set(`${reader} ${other}`, await get(other, reader));
              const reference = missing.get(`${reader} ${other}`) as HttpResponse;
              const same = (body: string) => body.replaceAll(/nonce="[^"]*"|"nonce":"[^"]*"/g, "");
              if (response.status !== reference.status) leaks.push(`${reader} ${path}: ${response.status}`);
              else if (same(response.body.replaceAll(picture.id, UNKNOWN_SAMPLE.picture)) !== same(reference.body))
                leaks.push(`${reader} ${path}: not the answer of an unknown picture`);
              continue;
            }
            for (const secret of [picture.word, picture.id, folders.get(picture.id) ?? picture.id]) {
              if (response.body.includes(secret)) leaks.push(`${reader} ${path} shows ${picture.word} (${secret})`);
            }
          }
        }
      }
    }
    expect({ leaks, blind }).toEqual({ leaks: [], blind: [] });
  });

  it("serves every file of a picture to its readers only, never to a shared cache, and none at its old public names", async () => {
    const wrong: string[] = [];
    for (const picture of pictures) {
      const files = await filesOf(picture.id);
      const restricted = picture.readers.length < READERS.length;
      expect(files.urls.length).toBeGreaterThan(6);
      expect(files.urls.every((url) => url.startsWith(restricted ? "/media/members/" : "/media/images/"))).toBe(true);
      for (const reader of READERS) {
        for (const url of files.urls) {
          const response = await get(url, reader);
          const may = picture.readers.includes(reader);
          if (response.status !== (may ? 200 : 404)) wrong.push(`${reader} ${url}: ${response.status}`);
          const cacheControl = String(response.headers["cache-control"]);
          if (restricted && may && cacheControl !== "private, no-cache") wrong.push(`${url}: ${cacheControl}`);
          if (restricted && !may && response.body !== "Not found") wrong.push(`${url}: ${response.body}`);
        }
        if (restricted) {
          for (const url of picture.publicUrls) {
            const response = await get(url, reader);
            if (response.status !== 404) wrong.push(`old ${reader} ${url}: ${response.status}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("moves a picture's files to public names and back, and a member taken out of its group loses them", async () => {
    const family = pictures[2] as ScenePicture;
    const before = await filesOf(family.id);
    await access(family.id, { visibility: "everyone" });
    const open = await filesOf(family.id);
    expect(open.private_folder).toBeNull();
    expect(open.urls.toSorted()).toEqual(family.publicUrls.toSorted());
    for (const url of open.urls) expect((await get(url, "visitor")).status).toBe(200);
    for (const url of before.urls) expect((await get(url, "family")).status).toBe(404);
    expect((await settled("/", "visitor", (response) => response.body.includes("otterfell"))).body).toContain(
      "otterfell",
    );

    await access(family.id, { visibility: "groups", group_ids: familyGroup });
    const again = await filesOf(family.id);
    expect(again.private_folder).not.toBe(before.private_folder);
    for (const url of open.urls) expect((await get(url, "family")).status).toBe(404);
    const first = again.urls[0] as string;
    expect((await get(first, "family")).status).toBe(200);
    await database.db.deleteFrom("user_groups").where("user_id", "=", familyReader).execute();
    expect((await get(first, "family")).status).toBe(404);
    expect((await get("/", "family")).body).not.toContain("otterfell");
    await database.db.insertInto("user_groups").values({ user_id: familyReader, group_id: familyGroup }).execute();
    expect((await get(first, "family")).status).toBe(200);
  });
});
