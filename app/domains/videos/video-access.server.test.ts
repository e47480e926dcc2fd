import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Reader } from "#app/domains/access/reader.ts";
import { VISITOR } from "#app/domains/access/reader.ts";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { sweepOrphanFiles } from "#app/domains/media/image-sweeps.server.ts";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { visibleItems } from "#app/domains/search/search-visibility.server.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { createUploadedVideo } from "#tests/support/video-factories.ts";
import { mayReadVideoFolder, setVideoAccess } from "./video-access.server.ts";
import { latestVideo, listPublishedVideos, setVideoPoster, sweepOrphanVideoFiles } from "./videos.server.ts";

/*
 * Who may see a video (issue 21): the one rule in its reads, and its files moved between public and member names.
 * The matrix over HTTP is tests/integration/video-access-http.test.ts.
 */
describe.each(databaseKinds)("who may see a video (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  let dir: string;
  let storage: FileStorage;
  let family: string;
  let friends: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-video-access-"));
    storage = createLocalStorage({ root: path.join(dir, "storage"), secret: "s" });
    family = "group-family";
    friends = "group-friends";
    await database.db
      .insertInto("member_groups")
      .values([
        { id: family, name: "Family", created_at: new Date() },
        { id: friends, name: "Friends", created_at: new Date() },
      ])
      .execute();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const member = (...groupIds: string[]): Reader => ({ kind: "member", userId: "u", groupIds });
  const admin: Reader = { kind: "admin", userId: "a" };

  async function filesOf(id: string) {
    const row = await database.db
      .selectFrom("videos as v")
      .innerJoin("images as i", "i.id", "v.poster_image_id")
      .select([
        "v.file_key",
        "v.private_folder",
        "v.visibility",
        "i.id as image_id",
        "i.variants",
        "i.private_folder as poster_folder",
      ])
      .where("v.id", "=", id)
      .executeTakeFirstOrThrow();
    const keys = [row.file_key as string, ...parseVariants(row.variants).map((variant) => variant.key)];
    return { ...row, keys };
  }

  it("moves the file and the poster's sizes to a member folder and back, with an audit entry each way", async () => {
    const id = await createUploadedVideo(database.db, storage, { title: "Lake" });
    const open = await filesOf(id);
    expect(open.file_key).toMatch(/^public\/videos\/[0-9a-f-]{36}\.mp4$/);

    expect(
      await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "groups", group_ids: family }),
    ).toEqual({ ok: true, target: "Lake" });
    const closed = await filesOf(id);
    expect(closed.private_folder).toMatch(/^[0-9a-f]{48}$/);
    expect(closed.poster_folder).toBe(closed.private_folder);
    expect(closed.keys.length).toBeGreaterThan(3);
    for (const key of closed.keys) {
      expect(key.startsWith(`private/members/${closed.private_folder}/`), key).toBe(true);
      expect(await storage.stat(key), key).not.toBeNull();
    }
    for (const key of open.keys) expect(await storage.stat(key), key).toBeNull();

    expect((await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "everyone" })).ok).toBe(true);
    const again = await filesOf(id);
    expect(again.private_folder).toBeNull();
    expect(again.poster_folder).toBeNull();
    expect(again.keys.toSorted()).toEqual(open.keys.toSorted());
    for (const key of again.keys) expect(await storage.stat(key), key).not.toBeNull();
    expect(await storage.list("private/members/")).toEqual([]);

    const audit = await listAudit(database.db, { action: "videos.access" });
    expect(audit.records.map((entry) => [entry.oldValue, entry.newValue])).toEqual([
      ["groups: Family", "everyone"],
      ["everyone", "groups: Family"],
    ]);
  });

  it("refuses groups without one, or an unknown one, and then moves nothing", async () => {
    const id = await createUploadedVideo(database.db, storage, { title: "Lake" });
    const before = await filesOf(id);
    const none = await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "groups", group_ids: "" });
    expect(none).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { group_ids: "admin.videos.error.groupsNeeded" },
    });
    const unknown = await setVideoAccess(database.db, storage, testAdmin, id, {
      visibility: "groups",
      group_ids: "nope",
    });
    expect(unknown).toEqual({ ok: false, reason: "invalid", fieldErrors: { group_ids: "admin.videos.error.groups" } });
    const odd = await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "secret" });
    expect(odd).toMatchObject({
      ok: false,
      reason: "invalid",
      fieldErrors: { visibility: "admin.videos.error.visibility" },
    });
    expect(await setVideoAccess(database.db, storage, testAdmin, "gone", { visibility: "members" })).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect(await filesOf(id)).toEqual(before);
    expect(await storage.list("private/members/")).toEqual([]);
    expect((await listAudit(database.db, { action: "videos.access" })).total).toBe(0);
  });

  it("shows each reader only the videos they may see, with a badge naming only their own groups", async () => {
    const everyone = await createUploadedVideo(database.db, storage, { title: "Open", poster: false });
    const members = await createUploadedVideo(database.db, storage, { title: "Members", poster: false });
    const grouped = await createUploadedVideo(database.db, storage, { title: "Family", poster: false });
    await setVideoAccess(database.db, storage, testAdmin, members, { visibility: "members" });
    await setVideoAccess(database.db, storage, testAdmin, grouped, {
      visibility: "groups",
      group_ids: `${family},${friends}`,
    });
    const titles = async (reader: Reader) => (await listPublishedVideos(database.db, "en", reader)).map((v) => v.title);
    expect(await titles(VISITOR)).toEqual(["Open"]);
    expect(await titles(member())).toEqual(["Open", "Members"]);
    expect(await titles(member(friends))).toEqual(["Open", "Members", "Family"]);
    expect(await titles(admin)).toEqual(["Open", "Members", "Family"]);
    expect((await latestVideo(database.db, "en", VISITOR))?.title).toBe("Open");
    expect((await latestVideo(database.db, "en", member(family)))?.title).toBe("Family");
    expect((await latestVideo(database.db, "en", member()))?.title).toBe("Members");

    const shown = await listPublishedVideos(database.db, "en", member(friends));
    expect(shown.map((video) => [video.visibility, video.groups])).toEqual([
      ["everyone", []],
      ["members", []],
      ["groups", ["Friends"]],
    ]);
    const [restricted] = (await listPublishedVideos(database.db, "en", admin)).filter((v) => v.id === grouped);
    expect(restricted?.groups).toEqual(["Family", "Friends"]);
    expect(restricted?.player).toMatchObject({
      kind: "file",
      src: expect.stringMatching(/^\/media\/members\/[0-9a-f]{48}\//),
    });

    const found = async (reader: Reader) =>
      (await visibleItems(database.db, "video", reader, new Date()).execute()).map((row) => row.item_id).sort();
    expect(await found(VISITOR)).toEqual([everyone]);
    expect(await found(member(family))).toEqual([everyone, members, grouped].sort());
  });

  it("tells of a restricted video's changes to its readers only: members, or a group's (sent to admins and its members)", async () => {
    const id = await createUploadedVideo(database.db, storage, { title: "Lake", poster: false });
    const audienceOfNextChange = async () => {
      await database.db.updateTable("videos").set({ sort_order: 7 }).where("id", "=", id).execute();
      const row = await database.db
        .selectFrom("change_events")
        .select("audience")
        .where("area", "=", "videos")
        .where("entity_id", "=", id)
        .orderBy("seq", "desc")
        .executeTakeFirstOrThrow();
      return row.audience;
    };
    expect(await audienceOfNextChange()).toBe("everyone");
    await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "members" });
    expect(await audienceOfNextChange()).toBe("members");
    await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "groups", group_ids: family });
    expect(await audienceOfNextChange()).toBe("groups");
    await database.db
      .updateTable("videos")
      .set({ active: false, visibility: "everyone" })
      .where("id", "=", id)
      .execute();
    expect(await audienceOfNextChange()).toBe("admins");
  });

  it("lets into a video's member folder only whoever may see the video, while it is shown", async () => {
    const id = await createUploadedVideo(database.db, storage, { title: "Lake" });
    await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "groups", group_ids: family });
    const folder = (await filesOf(id)).private_folder as string;
    const may = (reader: Reader) => mayReadVideoFolder(database.db, reader, folder);
    expect([await may(VISITOR), await may(member()), await may(member(friends))]).toEqual([false, false, false]);
    expect([await may(member(family)), await may(admin)]).toEqual([true, true]);
    await database.db.updateTable("videos").set({ active: false }).where("id", "=", id).execute();
    expect([await may(member(family)), await may(admin)]).toEqual([false, true]);
    expect(await mayReadVideoFolder(database.db, admin, "0".repeat(48))).toBe(false);
    expect(await mayReadVideoFolder(database.db, admin, "../x")).toBe(false);
  });

  it("puts a restricted video's new poster in its folder, and the sweeps keep its files", async () => {
    const id = await createUploadedVideo(database.db, storage, { title: "Lake" });
    await setVideoAccess(database.db, storage, testAdmin, id, { visibility: "members" });
    const first = await filesOf(id);
    const other = await createUploadedVideo(database.db, storage, { title: "Donor" });
    const donor = await filesOf(other);
    // The donor's poster row becomes the restricted video's new poster (as a fresh upload's would).
    await database.db.updateTable("videos").set({ poster_image_id: null }).where("id", "=", other).execute();
    expect((await setVideoPoster(database.db, testAdmin, id, donor.image_id, storage)).ok).toBe(true);
    const now = await filesOf(id);
    expect(now.image_id).toBe(donor.image_id);
    expect(now.poster_folder).toBe(first.private_folder);
    for (const key of now.keys) {
      expect(key.startsWith(`private/members/${first.private_folder}/`), key).toBe(true);
      expect(await storage.stat(key), key).not.toBeNull();
    }
    for (const key of donor.keys.slice(1)) expect(await storage.stat(key), key).toBeNull();

    const later = { olderThanMs: 60_000, storage, now: Date.now() + 2 * 60 * 60_000 };
    await sweepOrphanFiles(database.db, later);
    await sweepOrphanVideoFiles(database.db, later);
    for (const key of now.keys) expect(await storage.stat(key), key).not.toBeNull();
  });
});
