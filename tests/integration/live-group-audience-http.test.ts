import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { updateGalleryTexts } from "#app/domains/gallery/gallery-admin.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import { createPost, setPostStatus, updatePost } from "#app/domains/posts/post-admin.server.ts";
import { setVideoAccess } from "#app/domains/videos/video-access.server.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { type OpenStream, openEventStream } from "#tests/support/event-stream.ts";
import { insertFaqRow } from "#tests/support/factories.ts";
import { createGalleryPicture, galleryTexts, storageIn } from "#tests/support/gallery-factories.ts";
import {
  FAMILY_ONLY,
  MEMBER_READERS,
  type MemberReader,
  type MemberReaders,
  makeMemberReaders,
} from "#tests/support/member-readers.ts";
import type { ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";
import { createUploadedVideo } from "#tests/support/video-factories.ts";

/*
 * The leak matrix's live check (issue 42, item 6): a change to a Family item (picture, post, video) reaches, over the
 * real live stream, exactly the streams whose holder may see the item: the admin and the Family member. Never the
 * plain member, the member of another group or a visitor; and no longer the Family member once taken out of the
 * group. Until now such events went to admins only, so a Family member's open gallery never offered the new picture.
 */

type Change = { area: string; id: string | null };

describe.each(databaseKinds)("live events of a group's items, over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let storage: FileStorage;
  let readers: MemberReaders;
  let items: { picture: string; post: string; video: string };
  let faqId: string;
  let markers = 0;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const db = database.db;
    storage = storageIn(database.location.dataDir);
    readers = await makeMemberReaders(db);
    const family = { visibility: "groups", group_ids: readers.familyGroup };
    const picture = await createGalleryPicture(db, storage, { title: "Family picnic", published: true });
    expect((await setPictureAccess(db, storage, readers.actor, picture, family)).ok).toBe(true);
    const draft = await createPost(db, readers.actor, { title: "Family news", body: "Hello.", ...family });
    if (!draft.ok) throw new Error(JSON.stringify(draft));
    expect((await setPostStatus(db, readers.actor, draft.id, { status: "published" })).ok).toBe(true);
    const video = await createUploadedVideo(db, storage, { title: "Family video" });
    expect((await setVideoAccess(db, storage, readers.actor, video, family)).ok).toBe(true);
    items = { picture, post: draft.id, video };
    faqId = await insertFaqRow(db, { question: "Marker", active: true });
  }, 120_000);

  afterAll(() => stopServerAndDatabase(server, database));

  /** Each reader's stream, open and ready. */
  async function openStreams(): Promise<Map<MemberReader, OpenStream>> {
    const streams = new Map<MemberReader, OpenStream>();
    for (const reader of MEMBER_READERS) {
      const stream = await openEventStream(server.url("/api/events"), { cookie: readers.cookies[reader] });
      expect(stream.status, reader).toBe(200);
      await stream.waitFor((message) => message.event === "ready");
      streams.set(reader, stream);
    }
    return streams;
  }

  const changesIn = (stream: OpenStream): Change[] =>
    stream.messages
      .filter((message) => message.event === "change")
      .flatMap((message) => (message.data as { events: Change[] }).events);

  /** A change everyone hears, written after whatever came before it; resolves once every stream has it. */
  async function marker(streams: Map<MemberReader, OpenStream>) {
    markers += 1;
    await database.db
      .updateTable("faq_entries")
      .set({ question: `Marker ${markers}`, updated_at: new Date() })
      .where("id", "=", faqId)
      .execute();
    const [event] = await database.db
      .selectFrom("change_events")
      .select("seq")
      .where("area", "=", "faq")
      .orderBy("seq", "desc")
      .limit(1)
      .execute();
    const seq = Number(event?.seq);
    for (const [reader, stream] of streams) {
      await stream
        .waitFor((message) => message.event === "change" && Number(message.id) >= seq, 10_000)
        .catch(() => {
          throw new Error(`${reader}'s stream never heard marker ${markers}`);
        });
    }
  }

  /**
   * Who heard of each of `watched` while `writes` ran. A marker before them (a new stream may still be given what
   * was written just before it opened, while the server's feed catches up) and one after them (once every stream
   * has it, each has had all it will be given of the writes).
   */
  async function whoHears(writes: () => Promise<void>, watched: Change[]): Promise<Record<string, MemberReader[]>> {
    const streams = await openStreams();
    try {
      await marker(streams);
      const before = new Map([...streams].map(([reader, stream]) => [reader, stream.messages.length]));
      await writes();
      await marker(streams);
      const heard: Record<string, MemberReader[]> = {};
      for (const item of watched) {
        heard[`${item.area} ${item.id}`] = MEMBER_READERS.filter((reader) => {
          const stream = streams.get(reader) as OpenStream;
          const after = { ...stream, messages: stream.messages.slice(before.get(reader)) };
          return changesIn(after).some((change) => change.area === item.area && change.id === item.id);
        });
      }
      return heard;
    } finally {
      for (const stream of streams.values()) stream.close();
    }
  }

  const editAll = async (round: string) => {
    const db = database.db;
    await updateGalleryTexts(db, readers.actor, items.picture, galleryTexts({ title: `Family picnic ${round}` }));
    const post = await updatePost(db, readers.actor, items.post, {
      title: `Family news ${round}`,
      visibility: "groups",
      group_ids: readers.familyGroup,
    });
    expect(post.ok, JSON.stringify(post)).toBe(true);
    await db
      .updateTable("videos")
      .set({ title: `Family video ${round}` })
      .where("id", "=", items.video)
      .execute();
  };

  const watched = (): Change[] => [
    { area: "gallery", id: items.picture },
    { area: "posts", id: items.post },
    { area: "videos", id: items.video },
  ];

  it("tells the admin and the Family member of a Family item's change, and no one else", async () => {
    const heard = await whoHears(() => editAll("one"), watched());
    for (const item of watched())
      expect([item.area, heard[`${item.area} ${item.id}`]]).toEqual([item.area, FAMILY_ONLY]);
  });

  it("tells a member taken out of the group nothing more of its items", async () => {
    await database.db.deleteFrom("user_groups").where("user_id", "=", readers.familyUserId).execute();
    try {
      const heard = await whoHears(() => editAll("two"), watched());
      for (const item of watched())
        expect([item.area, heard[`${item.area} ${item.id}`]]).toEqual([item.area, ["admin"]]);
    } finally {
      await database.db
        .insertInto("user_groups")
        .values({ user_id: readers.familyUserId, group_id: readers.familyGroup })
        .execute();
    }
  });
});
