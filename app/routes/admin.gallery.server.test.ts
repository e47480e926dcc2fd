import { describe, expect, it } from "vitest";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { useGalleryTestStorage } from "#tests/support/gallery-factories.ts";
import { answerOf, formPost, servicesContext, sessionOf } from "#tests/support/route-services.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";
import { galleryAction, galleryLoader } from "./admin.gallery.server.ts";

// The gallery screen's loader and action called in-process, as React Router calls them (the HTTP path is in
// tests/integration/gallery-http.test.ts). SQLite only: the database rules are the domain's, tested on both.
describe("the gallery screen's loader and action", () => {
  const database = useTestDatabase("sqlite", "each");
  const pictures = useGalleryTestStorage(() => database.db);
  const runtime = () => ({
    database,
    storage: pictures.storage,
    env: { uploadMaxBytes: 1024 } as never,
  });

  it("refuses a signed-in non-admin with 403 and changes nothing", async () => {
    const id = await pictures.add({ title: "Kept", published: true });
    const user = await createUser(database.db);
    const context = servicesContext(runtime(), sessionOf(user));
    const thrown = await galleryAction({ ...formPost("/admin/gallery", { intent: "delete", id }), context }).catch(
      (error: unknown) => error,
    );
    expect(answerOf(thrown).status).toBe(403);
    const loaded = await galleryLoader({
      url: new URL("http://localhost/admin/gallery"),
      context: servicesContext(runtime(), sessionOf({ ...user, isAdmin: true })),
    });
    expect(loaded.items.map((item) => item.id)).toEqual([id]);
  });

  it("answers a text that does not fit with 400 and the field's reason in the admin's language", async () => {
    const id = await pictures.add({ title: "Before" });
    const admin = sessionOf(await createUser(database.db, { admin: true }));
    const audited = (await listAudit(database.db)).total;
    const post = formPost("/admin/gallery?lang=de", { intent: "update", id, title: "x".repeat(5000) });
    const answer = answerOf(await galleryAction({ ...post, context: servicesContext(runtime(), admin) }));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, fieldErrors: { title: expect.any(String) } });
    const german = (answer.body as { fieldErrors: Record<string, string> }).fieldErrors.title;
    const english = answerOf(
      await galleryAction({
        ...formPost("/admin/gallery?lang=en", { intent: "update", id, title: "x".repeat(5000) }),
        context: servicesContext(runtime(), admin),
      }),
    ).body as { fieldErrors: Record<string, string> };
    expect(german).not.toBe(english.fieldErrors.title);
    expect((await listAudit(database.db)).total).toBe(audited);
  });

  it("sets who may see several pictures at once: each moves its files, with its own audit entry", async () => {
    const first = await pictures.add({ title: "Shore", published: true });
    const second = await pictures.add({ title: "Dunes", published: true });
    const family = "7f0c3c2e-1111-4a4a-8b8b-000000000001";
    await database.db
      .insertInto("member_groups")
      .values({ id: family, name: "Family", created_at: new Date() })
      .execute();
    const admin = sessionOf(await createUser(database.db, { admin: true }));
    const send = (fields: Record<string, string>) =>
      galleryAction({
        ...formPost("/admin/gallery", { intent: "bulk-access", ...fields }),
        context: servicesContext(runtime(), admin),
      });
    const refused = answerOf(await send({ ids: `${first},${second}`, visibility: "groups", group_ids: "" }));
    expect(refused.status).toBe(400);
    const answer = answerOf(await send({ ids: `${first},${second}`, visibility: "groups", group_ids: family }));
    expect(answer).toEqual({ status: 200, body: { ok: true, message: expect.stringContaining("2") } });
    const rows = await database.db
      .selectFrom("gallery_images as g")
      .innerJoin("images as i", "i.id", "g.image_id")
      .select(["g.visibility", "i.private_folder", "i.variants"])
      .execute();
    for (const row of rows) {
      expect(row.visibility).toBe("groups");
      expect(row.private_folder).toMatch(/^[0-9a-f]{48}$/);
      expect(row.variants).not.toContain("public/images/");
    }
    const groups = await database.db
      .selectFrom("content_groups")
      .select(["item_id", "group_id"])
      .orderBy("item_id")
      .execute();
    expect(groups).toEqual([first, second].sort().map((id) => ({ item_id: id, group_id: family })));
    expect((await listAudit(database.db, { action: "gallery.access" })).total).toBe(2);
  });

  it("publishes a picture and records who did it in the audit log", async () => {
    const id = await pictures.add({ title: "Sunrise", published: false });
    const admin = sessionOf(await createUser(database.db, { admin: true }));
    const post = formPost("/admin/gallery", { intent: "publish", id, name: "Sunrise" });
    const answer = answerOf(await galleryAction({ ...post, context: servicesContext(runtime(), admin) }));
    expect(answer).toEqual({ status: 200, body: { ok: true, message: expect.stringContaining("Sunrise") } });
    const { records } = await listAudit(database.db);
    expect(records[0]).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      action: "gallery.publish",
      target: expect.stringContaining("Sunrise"),
    });
  });
});
