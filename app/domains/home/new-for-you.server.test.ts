import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { toIsoString } from "#app/db/values.ts";
import { albumFieldsSchema } from "#app/domains/albums/album-schema.ts";
import { addAlbumPictures, createAlbum } from "#app/domains/albums/albums.server.ts";
import { setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { listNewForYou, noteVisit, VISIT_GAP_MS } from "./new-for-you.server.ts";

describe.each(databaseKinds)("new for you since the last visit (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const gallery = useGalleryTestStorage(db);

  it("notes a visit's end only after a pause, and keeps the latest end", async () => {
    const member = await createUser(db());
    const now = new Date("2026-06-01T12:00:00Z");
    const ended = async () => {
      const row = await db()
        .selectFrom("member_visits")
        .select("last_visit_ended_at")
        .where("user_id", "=", member.id)
        .executeTakeFirst();
      return row ? new Date(toIsoString(row.last_visit_ended_at)) : undefined;
    };
    await noteVisit(db(), member.id, new Date(now.getTime() - VISIT_GAP_MS + 1000), now);
    expect(await ended()).toBeUndefined();
    const first = new Date(now.getTime() - 2 * VISIT_GAP_MS);
    await noteVisit(db(), member.id, first, now);
    expect(await ended()).toEqual(first);
    await noteVisit(db(), member.id, new Date(first.getTime() - 60_000), now);
    expect(await ended()).toEqual(first);
  });

  it("lists what appeared since, among what the reader may see, newest first", async () => {
    const family = randomUUID();
    await db().insertInto("member_groups").values({ id: family, name: "Family", created_at: new Date() }).execute();
    const member = await createUser(db());
    const since = new Date(Date.now() - 60_000);
    const publish = async (title: string, fields: Record<string, unknown> = {}, at = new Date()) => {
      const post = await createPost(db(), testAdmin, { title, ...fields });
      if (!post.ok) throw new Error("refused");
      await setPostStatus(db(), testAdmin, post.id, { status: "published", publishAt: at });
    };
    await publish("Before the visit", {}, new Date(since.getTime() - 60_000));
    await publish("For everyone");
    await publish("For members", { visibility: "members" });
    await publish("For the family", { visibility: "groups", group_ids: family });
    const picture = await gallery.add({ title: "Members' picture", published: true });
    const moved = await setPictureAccess(db(), gallery.storage, testAdmin, picture, { visibility: "members" });
    expect(moved.ok).toBe(true);
    // Albums: the family's (with a picture), and an empty one for everyone (nothing to show yet: not offered).
    const album = async (title: string, input: Record<string, unknown>, pictures: string[]) => {
      const made = await createAlbum(db(), testAdmin, albumFieldsSchema.parse({ title, ...input }));
      if (!made.ok) throw new Error("refused");
      if (pictures.length > 0) expect((await addAlbumPictures(db(), testAdmin, made.id, pictures)).ok).toBe(true);
      return made.id;
    };
    await album("Family summer", { visibility: "groups", group_ids: family }, [picture]);
    await album("Still empty", {}, []);

    const reader = { kind: "member" as const, userId: member.id, groupIds: [] };
    expect(await listNewForYou(db(), reader, "en")).toEqual([]);
    await db().insertInto("member_visits").values({ user_id: member.id, last_visit_ended_at: since }).execute();
    const titles = (await listNewForYou(db(), reader, "en")).map((item) => `${item.kind}: ${item.title}`);
    expect(titles.toSorted()).toEqual(["picture: Members' picture", "post: For everyone", "post: For members"]);
    const withFamily = await listNewForYou(db(), { ...reader, groupIds: [family] }, "en");
    expect(withFamily.map((item) => item.title)).toContain("For the family");
    expect(withFamily.filter((item) => item.kind === "album")).toEqual([
      expect.objectContaining({ title: "Family summer", href: "/albums/family-summer" }),
    ]);
    expect((await listNewForYou(db(), { ...reader, groupIds: [family] }, "de")).map((item) => item.href)).toContain(
      "/albums/family-summer",
    );
    expect(withFamily.find((item) => item.kind === "picture")?.href).toBe(`/?image=${picture}`);
    expect(await listNewForYou(db(), { kind: "visitor" }, "en")).toEqual([]);
  });
});
