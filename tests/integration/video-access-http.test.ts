import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { storageIn } from "#tests/support/gallery-factories.ts";
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
import { walkedAddresses } from "#tests/support/route-walk.ts";
import { postForm, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";
import { createUploadedVideo } from "#tests/support/video-factories.ts";

/*
 * The leak matrix of videos (issue 21): every public address of the route table (tests/support/route-walk.ts),
 * page and `.data`, and every stored file of an uploaded video (the video itself and each size of its poster) by its
 * address, for every kind of reader, against videos for everyone, for members and for one group. A video a reader
 * may not see shows nowhere (no title, no id, no folder, no file name), its files answer as missing files do, and
 * the public addresses its files had before stop answering. Access is set as the admin sets it: a form post to
 * /admin/videos (the admin-action contract), which moves the files.
 */

type Reader = MemberReader;
const READERS = MEMBER_READERS;

type SceneVideo = { id: string; word: string; readers: Reader[]; publicUrls: string[] };

describe.each(databaseKinds)("who may see a video, over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let storage: FileStorage;
  let videos: SceneVideo[];
  let cookies: Record<Reader, string | undefined>;
  let familyGroup: string;
  let familyReader: string;

  const { get, settled } = readerRequests(
    () => server,
    () => cookies,
  );
  const filesOf = async (id: string) => {
    const row = await database.db
      .selectFrom("videos as v")
      .innerJoin("images as i", "i.id", "v.poster_image_id")
      .select(["v.file_key", "v.private_folder", "i.variants"])
      .where("v.id", "=", id)
      .executeTakeFirstOrThrow();
    const keys = [row.file_key as string, ...parseVariants(row.variants).map((variant) => variant.key)];
    return {
      urls: keys.map(storedFileUrl),
      folder: row.private_folder,
      file: (row.file_key as string).split("/").at(-1),
    };
  };
  /** As the admin sets it: the editor's access form, posted to /admin/videos. */
  const access = async (id: string, fields: Record<string, string>) => {
    const answer = await postForm(
      server,
      "/admin/videos",
      { intent: "access", id, name: "A video", group_ids: "", ...fields },
      { cookie: cookies.admin as string },
    );
    if (answer.status >= 300) throw new Error(`refused: ${answer.status} ${answer.body.slice(0, 200)}`);
  };

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const db = database.db;
    storage = storageIn(database.location.dataDir);
    const readers = await makeMemberReaders(db);
    ({ familyGroup, cookies } = readers);
    familyReader = readers.familyUserId;
    const specs: { word: string; fields: Record<string, string> | null; readers: Reader[] }[] = [
      { word: "zebrareel", fields: null, readers: READERS },
      { word: "lynxreel", fields: { visibility: "members" }, readers: MEMBERS_ONLY },
      { word: "otterreel", fields: { visibility: "groups", group_ids: familyGroup }, readers: FAMILY_ONLY },
    ];
    videos = [];
    for (const spec of specs) {
      const id = await createUploadedVideo(db, storage, { title: `${spec.word} shore` });
      const publicUrls = (await filesOf(id)).urls;
      if (spec.fields) await access(id, spec.fields);
      videos.push({ id, word: spec.word, readers: spec.readers, publicUrls });
    }
    await settled("/videos", "visitor", (response) => response.body.includes("zebrareel"));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("walks every public address, page and data, for every reader: nothing shows that the reader may not see", async () => {
    const addresses = walkedAddresses({ slugs: [], tags: [], pictures: [], query: "shore" });
    const secrets = new Map<string, string[]>();
    for (const video of videos) {
      const files = await filesOf(video.id);
      secrets.set(video.id, [video.word, video.id, files.file ?? video.id, files.folder ?? video.id]);
    }
    const leaks: string[] = [];
    const blind: string[] = [];
    for (const reader of READERS) {
      const shown = videos.filter((video) => video.readers.includes(reader)).map((video) => video.word);
      for (const address of addresses) {
        for (const [path, response] of await pageAndData((target) => get(target, reader), address, shown, blind)) {
          if (response.status >= 500) leaks.push(`${reader} ${path}: ${response.status}`);
          for (const video of videos) {
            if (video.readers.includes(reader)) continue;
            for (const secret of secrets.get(video.id) ?? []) {
              if (response.body.includes(secret)) leaks.push(`${reader} ${path} shows ${video.word} (${secret})`);
            }
          }
        }
      }
    }
    expect({ leaks, blind }).toEqual({ leaks: [], blind: [] });
  });

  it("lists for each reader exactly the videos they may see, the restricted ones with their badge", async () => {
    for (const reader of READERS) {
      for (const path of ["/videos", "/videos.data"]) {
        const body = (await get(path, reader)).body;
        const shown = videos.filter((video) => body.includes(video.word)).map((video) => video.word);
        expect([reader, path, shown]).toEqual([
          reader,
          path,
          videos.filter((video) => video.readers.includes(reader)).map((video) => video.word),
        ]);
      }
      const page = (await get("/videos", reader)).body;
      expect([reader, page.includes(">Members<")]).toEqual([reader, MEMBERS_ONLY.includes(reader)]);
      expect([reader, page.includes(">For Family<")]).toEqual([reader, FAMILY_ONLY.includes(reader)]);
      // The home page's latest video is the newest the reader may see.
      const latest = [...videos].reverse().find((video) => video.readers.includes(reader)) as SceneVideo;
      const home = (await get("/home", reader)).body;
      const others = videos.filter((video) => video !== latest && home.includes(video.word)).map((video) => video.word);
      expect([reader, home.includes(latest.word), others]).toEqual([reader, true, []]);
    }
  });

  it("serves every file of a video to its readers only, never to a shared cache, and none at its old public names", async () => {
    const wrong: string[] = [];
    for (const video of videos) {
      const files = await filesOf(video.id);
      const restricted = video.readers.length < READERS.length;
      expect(files.urls.length).toBeGreaterThan(3);
      const place = restricted ? new RegExp(`^/media/members/${files.folder}/`) : /^\/media\/(videos|images)\//;
      expect(files.urls.filter((url) => !place.test(url))).toEqual([]);
      for (const reader of READERS) {
        for (const url of files.urls) {
          const response = await get(url, reader);
          const may = video.readers.includes(reader);
          if (response.status !== (may ? 200 : 404)) wrong.push(`${reader} ${url}: ${response.status}`);
          const cacheControl = String(response.headers["cache-control"]);
          if (restricted && may && cacheControl !== "private, no-cache") wrong.push(`${url}: ${cacheControl}`);
          if (restricted && cacheControl.includes("public")) wrong.push(`${reader} ${url}: ${cacheControl}`);
          if (restricted && !may && response.body !== "Not found") wrong.push(`${url}: ${response.body}`);
        }
        if (restricted) {
          for (const url of video.publicUrls) {
            const response = await get(url, reader);
            if (response.status !== 404) wrong.push(`old ${reader} ${url}: ${response.status}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("moves a video's files to public names and back, and a member taken out of its group loses them", async () => {
    const family = videos[2] as SceneVideo;
    const before = await filesOf(family.id);
    await access(family.id, { visibility: "everyone" });
    const open = await filesOf(family.id);
    expect(open.folder).toBeNull();
    expect(open.urls.toSorted()).toEqual(family.publicUrls.toSorted());
    for (const url of open.urls) expect((await get(url, "visitor")).status).toBe(200);
    for (const url of before.urls) expect((await get(url, "family")).status).toBe(404);
    const shown = await settled("/videos", "visitor", (response) => response.body.includes("otterreel"));
    expect(shown.body).toContain("otterreel");

    await access(family.id, { visibility: "groups", group_ids: familyGroup });
    const again = await filesOf(family.id);
    expect(again.folder).toMatch(/^[0-9a-f]{48}$/);
    expect(again.folder).not.toBe(before.folder);
    for (const url of open.urls) expect((await get(url, "family")).status).toBe(404);
    const hidden = await settled("/videos", "visitor", (response) => !response.body.includes("otterreel"));
    expect(hidden.body).not.toContain("otterreel");
    const first = again.urls[0] as string;
    expect(first).toMatch(/\.mp4$/);
    expect((await get(first, "family")).status).toBe(200);
    await database.db.deleteFrom("user_groups").where("user_id", "=", familyReader).execute();
    expect((await get(first, "family")).status).toBe(404);
    expect((await get("/videos", "family")).body).not.toContain("otterreel");
    await database.db.insertInto("user_groups").values({ user_id: familyReader, group_id: familyGroup }).execute();
    expect((await get(first, "family")).status).toBe(200);
  });

  it("names Videos in the menu to whoever sees a video: to members alone while only members' videos are shown", async () => {
    const open = videos[0] as SceneVideo;
    const menuLinks = (body: string) =>
      body
        .match(/<nav[\s\S]*?<\/nav>/g)
        ?.join("")
        .includes('href="/videos"');
    await database.db.updateTable("videos").set({ active: false }).where("id", "=", open.id).execute();
    try {
      await settled("/", "visitor", (response) => menuLinks(response.body) === false);
      for (const reader of READERS) {
        expect([reader, menuLinks((await get("/", reader)).body)]).toEqual([reader, reader !== "visitor"]);
      }
      // A signed-in reader's menu is kept too (per set of groups) and follows the next write as the visitors' does.
      const shown = await database.db.selectFrom("videos").select("id").where("active", "=", true).execute();
      const ids = shown.map((video) => video.id);
      expect(ids.length).toBeGreaterThan(0);
      await database.db.updateTable("videos").set({ active: false }).where("id", "in", ids).execute();
      try {
        for (const reader of ["admin", "family", "member"] as const) {
          const response = await settled("/", reader, (answer) => menuLinks(answer.body) === false);
          expect([reader, menuLinks(response.body)]).toEqual([reader, false]);
        }
      } finally {
        await database.db.updateTable("videos").set({ active: true }).where("id", "in", ids).execute();
      }
    } finally {
      await database.db.updateTable("videos").set({ active: true }).where("id", "=", open.id).execute();
    }
    await settled("/", "visitor", (response) => menuLinks(response.body) === true);
    expect(menuLinks((await get("/", "visitor")).body)).toBe(true);
  });

  it("refuses, through the admin's form, groups without one and anyone but an admin", async () => {
    const target = videos[0] as SceneVideo;
    const fields = { intent: "access", id: target.id, name: "x", visibility: "groups", group_ids: "" };
    const refused = await postForm(server, "/admin/videos", fields, { cookie: cookies.admin as string });
    expect(refused.status).toBe(400);
    for (const reader of ["family", "visitor"] as const) {
      const cookie = cookies[reader];
      const answer = await postForm(
        server,
        "/admin/videos",
        { ...fields, visibility: "members" },
        cookie ? { cookie } : {},
      );
      expect([reader, answer.status >= 300 && answer.status < 500]).toEqual([reader, true]);
    }
    const row = await database.db
      .selectFrom("videos")
      .select("visibility")
      .where("id", "=", target.id)
      .executeTakeFirst();
    expect(row?.visibility).toBe("everyone");
  });
});
