import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { albumFieldsSchema } from "#app/domains/albums/album-schema.ts";
import { createAlbum, deleteAlbum } from "#app/domains/albums/albums.server.ts";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * Uploading straight into an album (issue 21): the picture joins the gallery and the album's end; into an album for a
 * group it never passes through the public gallery: it is made hidden, given the album's readers (its files in a
 * member folder), and published only then.
 */
describe.each(databaseKinds)("uploads into an album, over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  const upload = async (albumId: string, name: string) => {
    const data = await testPhoto({ width: 900, height: 600, label: name });
    const part = { field: "file", filename: name, type: "image/jpeg", data };
    return postMultipart(server, `/admin/uploads/gallery?album=${albumId}`, [part], {
      cookie: adminCookie,
      accept: "application/json",
      fields: { publish: "now" },
    });
  };
  const pictureOf = (id: string) =>
    database.db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select(["g.published", "g.visibility", "i.private_folder", "i.variants"])
      .where("g.id", "=", id)
      .executeTakeFirstOrThrow();
  const albumOf = async (albumId: string) =>
    (await database.db.selectFrom("album_pictures").select("picture_id").where("album_id", "=", albumId).execute()).map(
      (row) => row.picture_id,
    );

  it("puts a picture uploaded into a public album in the gallery and at the album's end", async () => {
    const made = await createAlbum(database.db, testAdmin, albumFieldsSchema.parse({ title: "Open air" }));
    if (!made.ok) throw new Error("refused");
    const response = await upload(made.id, "meadow.jpg");
    expect(response.status).toBe(200);
    const id = JSON.parse(response.body).id as string;
    expect(await albumOf(made.id)).toEqual([id]);
    expect(await pictureOf(id)).toMatchObject({ visibility: "everyone", private_folder: null });
    expect(Boolean((await pictureOf(id)).published)).toBe(true);
  });

  it("gives a picture uploaded into a group's album that group, its files a member folder, and then publishes it", async () => {
    const group = randomUUID();
    await database.db
      .insertInto("member_groups")
      .values({ id: group, name: "Family", created_at: new Date() })
      .execute();
    const made = await createAlbum(
      database.db,
      testAdmin,
      albumFieldsSchema.parse({ title: "Cousins", visibility: "groups", group_ids: group }),
    );
    if (!made.ok) throw new Error("refused");
    const response = await upload(made.id, "cousins.jpg");
    expect(response.status).toBe(200);
    const id = JSON.parse(response.body).id as string;
    expect(await albumOf(made.id)).toEqual([id]);
    const picture = await pictureOf(id);
    expect(picture.visibility).toBe("groups");
    expect(Boolean(picture.published)).toBe(true);
    expect(picture.private_folder).toMatch(/^[0-9a-f]{48}$/);
    const keys = parseVariants(picture.variants).map((variant) => variant.key);
    expect(keys.length).toBeGreaterThan(3);
    expect(keys.every((key) => key.startsWith(`private/members/${picture.private_folder}/`))).toBe(true);
    const groups = await database.db
      .selectFrom("content_groups")
      .select("group_id")
      .where("item_id", "=", id)
      .execute();
    expect(groups).toEqual([{ group_id: group }]);
    // It was never published while at public names: the audit says hidden, restricted, then published.
    const actions = await database.db
      .selectFrom("audit_log")
      .select("action")
      .where("action", "in", ["gallery.create", "gallery.access", "gallery.publish"])
      .where("created_at", ">=", new Date(Date.now() - 60_000))
      .orderBy("id")
      .execute();
    expect(actions.map((row) => row.action).slice(-3)).toEqual(["gallery.create", "gallery.access", "gallery.publish"]);
    // A visitor's gallery never lists it.
    expect((await request(server.url("/"))).body).not.toContain(id);
  });

  it("leaves the picture hidden in the gallery, and says so, when the album was deleted meanwhile", async () => {
    const made = await createAlbum(
      database.db,
      testAdmin,
      albumFieldsSchema.parse({ title: "Soon gone", visibility: "members" }),
    );
    if (!made.ok) throw new Error("refused");
    await deleteAlbum(database.db, testAdmin, made.id);
    const response = await upload(made.id, "late.jpg");
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body) as { id: string; message: string };
    expect(body.message).toBe("late.jpg was added to the gallery; the album no longer exists.");
    expect(Boolean((await pictureOf(body.id)).published)).toBe(false);
  });
});
