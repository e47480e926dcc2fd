import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Reader } from "#app/domains/access/reader.ts";
import { VISITOR } from "#app/domains/access/reader.ts";
import { mayReadMemberFolder, setPictureAccess } from "#app/domains/gallery/gallery-access.server.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { type AlbumFields, albumFieldsSchema } from "./album-schema.ts";
import {
  type AlbumWrite,
  addAlbumPictures,
  createAlbum,
  deleteAlbum,
  removeAlbumPicture,
  reorderAlbumPictures,
  setAlbumCover,
  updateAlbum,
} from "./albums.server.ts";
import { findAlbum, listAlbums } from "./albums-public.server.ts";

/*
 * Albums (issue 21): the admin's writes with their audit entries, and what each reader is shown. The matrix over
 * HTTP (every address, every file) is tests/integration/album-access-http.test.ts.
 */

const fields = (input: Record<string, unknown>): AlbumFields => albumFieldsSchema.parse(input);
const idOf = (result: AlbumWrite) => {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.id;
};

describe.each(databaseKinds)("albums (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const db = () => database.db;
  const gallery = useGalleryTestStorage(db);

  async function group(name: string) {
    const id = randomUUID();
    await db().insertInto("member_groups").values({ id, name, created_at: new Date() }).execute();
    return id;
  }
  const member = (groupIds: string[] = []): Reader => ({ kind: "member", userId: randomUUID(), groupIds });
  const admin: Reader = { kind: "admin", userId: "admin-1" };
  const titlesOf = async (reader: Reader) =>
    (await listAlbums(db(), { lang: "en", reader })).map((album) => album.title);

  it("makes slugs from the titles, numbers a taken one, refuses a typed one that is taken, and audits", async () => {
    const first = idOf(await createAlbum(db(), testAdmin, fields({ title: "Summer in Tirol", title_de: "Sommer" })));
    const second = idOf(await createAlbum(db(), testAdmin, fields({ title: "Summer in Tirol" })));
    const rows = await db().selectFrom("albums").select(["id", "slug", "slug_de"]).orderBy("sort_order").execute();
    expect(rows).toEqual([
      { id: first, slug: "summer-in-tirol", slug_de: "sommer" },
      { id: second, slug: "summer-in-tirol-2", slug_de: "summer-in-tirol-2" },
    ]);
    const taken = await createAlbum(db(), testAdmin, fields({ title: "Other", slug: "sommer" }));
    expect(taken).toEqual({ ok: false, reason: "invalid", fieldErrors: { slug: "admin.albums.error.slugTaken" } });
    expect(await db().selectFrom("albums").select("id").execute()).toHaveLength(2);
    const audit = await db().selectFrom("audit_log").select(["action", "target"]).orderBy("id").execute();
    expect(audit).toEqual([
      { action: "albums.create", target: "Summer in Tirol" },
      { action: "albums.create", target: "Summer in Tirol" },
    ]);
  });

  it("refuses groups that are not named or do not exist, and writes nothing", async () => {
    expect(await createAlbum(db(), testAdmin, fields({ title: "A", visibility: "groups" }))).toMatchObject({
      ok: false,
      fieldErrors: { group_ids: "admin.albums.error.groupsNeeded" },
    });
    const unknown = await createAlbum(db(), testAdmin, fields({ title: "A", visibility: "groups", group_ids: "nope" }));
    expect(unknown).toMatchObject({ ok: false, fieldErrors: { group_ids: "admin.albums.error.groups" } });
    expect(await db().selectFrom("albums").select("id").execute()).toEqual([]);
    expect(await db().selectFrom("audit_log").select("id").execute()).toEqual([]);
  });

  it("adds pictures in order once, takes them out, orders them and keeps the cover among them", async () => {
    const album = idOf(await createAlbum(db(), testAdmin, fields({ title: "Trip" })));
    const [a, b, c] = [
      await gallery.add({ title: "A", published: true }),
      await gallery.add({ title: "B", published: true }),
      await gallery.add({ title: "C", published: true }),
    ];
    expect(await addAlbumPictures(db(), testAdmin, album, [b, a])).toMatchObject({ ok: true, added: 2 });
    expect(await addAlbumPictures(db(), testAdmin, album, [a, c])).toMatchObject({ ok: true, added: 1 });
    expect(await addAlbumPictures(db(), testAdmin, album, [randomUUID()])).toEqual({
      ok: false,
      reason: "pictureNotFound",
    });
    const order = async () =>
      (await findAlbum(db(), { slug: "trip", lang: "en", reader: VISITOR }))?.items.map((i) => i.title);
    expect(await order()).toEqual(["B", "A", "C"]);
    expect(await reorderAlbumPictures(db(), testAdmin, album, [a, b])).toEqual({ ok: false, reason: "stale" });
    idOf(await reorderAlbumPictures(db(), testAdmin, album, [c, a, b]));
    expect(await order()).toEqual(["C", "A", "B"]);

    idOf(await setAlbumCover(db(), testAdmin, album, b));
    expect((await listAlbums(db(), { lang: "en", reader: VISITOR }))[0]?.cover?.alt).toBe("B");
    expect(await setAlbumCover(db(), testAdmin, album, randomUUID())).toEqual({ ok: false, reason: "pictureNotFound" });
    idOf(await removeAlbumPicture(db(), testAdmin, album, b));
    const row = await db().selectFrom("albums").select("cover_picture_id").executeTakeFirstOrThrow();
    expect(row.cover_picture_id).toBeNull();
    // The picture stays in the gallery; the album's cover is its first picture again.
    expect(await db().selectFrom("gallery_images").select("id").where("id", "=", b).execute()).toHaveLength(1);
    expect((await listAlbums(db(), { lang: "en", reader: VISITOR }))[0]).toMatchObject({
      count: 2,
      cover: { alt: "C" },
    });
    const actions = (
      await db().selectFrom("audit_log").select("action").where("action", "like", "albums.%").orderBy("id").execute()
    ).map((r) => r.action);
    expect(actions).toEqual([
      "albums.create",
      "albums.addPictures",
      "albums.addPictures",
      "albums.reorderPictures",
      "albums.cover",
      "albums.removePicture",
    ]);
  });

  it("shows each reader only the albums the one rule allows, and no album without a shown picture", async () => {
    const family = await group("Family");
    const friends = await group("Friends");
    const shown = await gallery.add({ title: "Shown", published: true });
    const hidden = await gallery.add({ title: "Hidden", published: false });
    const make = async (title: string, access: Record<string, string>, pictures: string[]) => {
      const id = idOf(await createAlbum(db(), testAdmin, fields({ title, ...access })));
      idOf(await addAlbumPictures(db(), testAdmin, id, pictures));
      return id;
    };
    await make("Public", {}, [shown]);
    await make("Members", { visibility: "members" }, [shown]);
    await make("Family", { visibility: "groups", group_ids: family }, [shown]);
    await make("Only hidden", {}, [hidden]);
    expect(await titlesOf(VISITOR)).toEqual(["Public"]);
    expect(await titlesOf(member())).toEqual(["Public", "Members"]);
    expect(await titlesOf(member([friends]))).toEqual(["Public", "Members"]);
    expect(await titlesOf(member([family]))).toEqual(["Public", "Members", "Family"]);
    expect(await titlesOf(admin)).toEqual(["Public", "Members", "Family", "Only hidden"]);
    // A restricted album answers a reader who may not see it as a missing one.
    expect(await findAlbum(db(), { slug: "family", lang: "en", reader: member([friends]) })).toBeNull();
    expect(await findAlbum(db(), { slug: "family", lang: "en", reader: member([family]) })).toMatchObject({
      title: "Family",
      groupNames: ["Family"],
      total: 1,
    });
    // The badge names only the reader's own groups.
    const both = idOf(
      await createAlbum(
        db(),
        testAdmin,
        fields({ title: "Both", visibility: "groups", group_ids: `${family},${friends}` }),
      ),
    );
    idOf(await addAlbumPictures(db(), testAdmin, both, [shown]));
    expect((await findAlbum(db(), { slug: "both", lang: "en", reader: member([friends]) }))?.groupNames).toEqual([
      "Friends",
    ]);
  });

  it("shows a restricted picture to whoever may see its album, files too, and stops when it leaves the album", async () => {
    const family = await group("Family");
    const picture = await gallery.add({ title: "Private", published: true });
    expect(
      (await setPictureAccess(db(), gallery.storage, testAdmin, picture, { visibility: "groups", group_ids: [family] }))
        .ok,
    ).toBe(true);
    const folder = (
      await db()
        .selectFrom("gallery_images as g")
        .innerJoin("images as i", "i.id", "g.image_id")
        .select("i.private_folder")
        .where("g.id", "=", picture)
        .executeTakeFirstOrThrow()
    ).private_folder as string;
    expect(await mayReadMemberFolder(db(), VISITOR, folder)).toBe(false);
    const album = idOf(await createAlbum(db(), testAdmin, fields({ title: "Open" })));
    idOf(await addAlbumPictures(db(), testAdmin, album, [picture]));
    expect((await findAlbum(db(), { slug: "open", lang: "en", reader: VISITOR }))?.items.map((i) => i.title)).toEqual([
      "Private",
    ]);
    expect(await mayReadMemberFolder(db(), VISITOR, folder)).toBe(true);
    idOf(await updateAlbum(db(), testAdmin, album, fields({ title: "Open", visibility: "members" })));
    expect(await mayReadMemberFolder(db(), VISITOR, folder)).toBe(false);
    expect(await mayReadMemberFolder(db(), member(), folder)).toBe(true);
    idOf(await removeAlbumPicture(db(), testAdmin, album, picture));
    expect(await mayReadMemberFolder(db(), member(), folder)).toBe(false);
    expect(await mayReadMemberFolder(db(), member([family]), folder)).toBe(true);
  });

  it("finds an album by its German slug, opens a shared picture's page, and deletes it leaving its pictures", async () => {
    const album = idOf(await createAlbum(db(), testAdmin, fields({ title: "Snow", title_de: "Schnee" })));
    const ids: string[] = [];
    for (let n = 0; n < 26; n++)
      ids.push(await gallery.add({ title: `P${n}`, published: true, width: 40, height: 30 }));
    idOf(await addAlbumPictures(db(), testAdmin, album, ids));
    const german = await findAlbum(db(), { slug: "schnee", lang: "de", reader: VISITOR, imageId: ids[25] });
    expect(german).toMatchObject({
      slug: "schnee",
      title: "Schnee",
      page: 2,
      pageCount: 2,
      total: 26,
      openId: ids[25],
    });
    expect(german?.items.map((item) => item.title)).toEqual(["P24", "P25"]);
    await db()
      .insertInto("share_links")
      .values({
        id: randomUUID(),
        kind: "album",
        item_id: album,
        token_hash: "h",
        created_by: "x",
        created_at: new Date(),
      })
      .execute();
    idOf(await deleteAlbum(db(), testAdmin, album));
    expect(await db().selectFrom("albums").select("id").execute()).toEqual([]);
    expect(await db().selectFrom("album_pictures").select("picture_id").execute()).toEqual([]);
    expect(await db().selectFrom("share_links").select("id").execute()).toEqual([]);
    expect(await db().selectFrom("gallery_images").select("id").execute()).toHaveLength(26);
  });
});
