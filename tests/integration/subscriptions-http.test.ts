import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { albumFieldsSchema } from "#app/domains/albums/album-schema.ts";
import { addAlbumPictures, createAlbum } from "#app/domains/albums/albums.server.ts";
import { announceNewItem } from "#app/domains/subscriptions/announcements.server.ts";
import { isSubscribed } from "#app/domains/subscriptions/subscriptions.server.ts";
import {
  cookieFor,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { type CreatedUser, createUser } from "#tests/support/factories.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * Issue 21 over HTTP, on the real server with a real SMTP server: the /account switch as a form post (no
 * JavaScript), a post published by the admin mailed after the answer to the subscribers who may read it and to no
 * one else, once, and the mail's unsubscribe link: one POST without a cookie ends it, a bad token changes nothing.
 */

type Person = CreatedUser & { cookie: string };

describe.each(databaseKinds)("subscriptions to new posts over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let smtp: TestSmtpServer;
  let admin: Person;
  let family: Person;
  let outsider: Person;
  let quiet: Person;
  let familyGroup: string;

  const person = async (options: { admin?: boolean } = {}): Promise<Person> => {
    const user = await createUser(database.db, options);
    return { ...user, cookie: await cookieFor(database, user) };
  };
  const switchOf = async (who: Person) => {
    const page = await request(server.url("/account"), { headers: { Cookie: who.cookie } });
    expect(page.status).toBe(200);
    return /role="switch"[^>]*aria-checked="(true|false)"/.exec(page.body)?.[1];
  };
  const subscribe = (who: Person, posts: string) =>
    postForm(server, "/account?index", { intent: "subscriptions", posts }, { cookie: who.cookie });

  /** Waits until every announcement is decided and no mail job is left, then answers the mails received. */
  async function settled(): Promise<ReceivedMail[]> {
    for (let tries = 0; tries < 400; tries++) {
      const [jobs, pending] = await Promise.all([
        database.db
          .selectFrom("jobs")
          .select("id")
          .where("kind", "in", ["mail.send", "subscriptions.announce"])
          .where("state", "in", ["queued", "running"])
          .execute(),
        database.db.selectFrom("announcement_recipients").select("user_id").where("state", "=", "pending").execute(),
      ]);
      if (jobs.length === 0 && pending.length === 0) return smtp.mails;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("The announcement's jobs did not finish");
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    ({ database, server } = await startServerOnFreshDatabase(kind, {
      SMTP_URL: smtp.url,
      MAIL_FROM: "site@example.test",
    }));
    admin = await person({ admin: true });
    family = await person();
    outsider = await person();
    quiet = await person();
    familyGroup = randomUUID();
    await database.db
      .insertInto("member_groups")
      .values({ id: familyGroup, name: "Family", created_at: new Date() })
      .execute();
    await database.db.insertInto("user_groups").values({ user_id: family.id, group_id: familyGroup }).execute();
    await database.db.updateTable("user").set({ language: "de" }).where("id", "=", family.id).execute();
  });

  afterAll(async () => {
    await stopServerAndDatabase(server, database);
    await smtp.close();
  });

  it("turns the mails on and off on /account by a form post; anything else is refused and changes nothing", async () => {
    expect(await switchOf(family)).toBe("false");
    expect(await isSubscribed(database.db, family.id, "post")).toBe(false);

    const on = await subscribe(family, "on");
    expect(on.status).toBe(200);
    expect(visibleText(on.body)).toContain("You will get an e-mail about each new post and album.");
    expect(await isSubscribed(database.db, family.id, "post")).toBe(true);
    expect(await switchOf(family)).toBe("true");
    // The same wish twice (two tabs) keeps it on.
    expect((await subscribe(family, "on")).status).toBe(200);
    expect(await isSubscribed(database.db, family.id, "post")).toBe(true);

    expect((await subscribe(family, "maybe")).status).toBe(400);
    expect(await isSubscribed(database.db, family.id, "post")).toBe(true);
    const visitor = await postForm(server, "/account?index", { intent: "subscriptions", posts: "on" });
    expect(visitor.status).not.toBe(200);

    expect((await subscribe(outsider, "on")).status).toBe(200);
    expect((await subscribe(quiet, "on")).status).toBe(200);
    expect((await subscribe(quiet, "off")).status).toBe(200);
    expect(await isSubscribed(database.db, quiet.id, "post")).toBe(false);
    expect(await switchOf(quiet)).toBe("false");
  });

  it("mails a published group post once, after the answer, to the subscribers who may read it", async () => {
    const published = await postForm(
      server,
      "/admin/posts/new",
      {
        intent: "publish",
        title: "Holiday pictures",
        title_de: "Urlaubsbilder",
        excerpt: "The lake in June",
        excerpt_de: "Der See im Juni",
        visibility: "groups",
        group_ids: familyGroup,
      },
      { cookie: admin.cookie },
    );
    expect(published.status).toBe(303);
    const postId = (published.headers.location ?? "").split("/").pop()?.split("?")[0] ?? "";

    const mail = await smtp.waitForMail((m) => m.to.includes(family.email), 15_000);
    expect(mail.subject).toBe("Neuer Beitrag: Urlaubsbilder");
    expect(mail.text).toContain("Der See im Juni");
    const unsubscribe = mail.headerLines.find((line) => line.key === "list-unsubscribe")?.line ?? "";
    expect(unsubscribe).toMatch(
      /^List-Unsubscribe: <http:\/\/[^>]+\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\?lang=de>$/,
    );
    expect(mail.headerLines.find((line) => line.key === "list-unsubscribe-post")?.line).toBe(
      "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
    );
    expect((await settled()).map((m) => m.to[0])).toEqual([family.email]);

    // Taken back and published again: announced already, no one is mailed twice.
    for (const intent of ["unpublish", "publish"]) {
      expect(
        (
          await postForm(
            server,
            `/admin/posts/${postId}`,
            { intent, title: "Holiday pictures", visibility: "groups", group_ids: familyGroup },
            { cookie: admin.cookie },
          )
        ).status,
      ).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await settled()).map((m) => m.to[0])).toEqual([family.email]);
  });

  it("mails a group's new album once, in the reader's language, to the subscribers who may see it", async () => {
    // The one switch subscribed to albums too.
    expect(await isSubscribed(database.db, family.id, "album")).toBe(true);
    expect(await isSubscribed(database.db, quiet.id, "album")).toBe(false);
    const storage = storageIn(database.location.dataDir);
    const picture = await createGalleryPicture(database.db, storage, {
      title: "Shore",
      published: true,
      width: 600,
      height: 400,
    });
    const fields = { title: "Cousins", title_de: "Cousinen", description: "At the lake", description_de: "Am See" };
    const made = await createAlbum(
      database.db,
      admin,
      albumFieldsSchema.parse({ ...fields, visibility: "groups", group_ids: familyGroup }),
    );
    if (!made.ok) throw new Error("refused");
    const before = (await settled()).length;
    // An album without a picture to show is nothing to announce yet.
    await announceNewItem({ db: database.db }, { kind: "album", id: made.id });
    expect((await settled()).length).toBe(before);
    await addAlbumPictures(database.db, admin, made.id, [picture]);
    await announceNewItem({ db: database.db }, { kind: "album", id: made.id });
    const mail = await smtp.waitForMail(
      (m) => m.to.includes(family.email) && m.subject.startsWith("Neues Album"),
      15_000,
    );
    expect(mail.subject).toBe("Neues Album: Cousinen");
    expect(mail.text).toContain("Am See");
    expect(mail.text).toContain("/albums/cousinen");
    expect((await settled()).slice(before).map((m) => m.to[0])).toEqual([family.email]);
  });

  it("unsubscribes by the mail's link in one POST without a cookie; a bad token answers 400 and changes nothing", async () => {
    const mail = smtp.mails.find((m) => m.to.includes(family.email));
    const line = mail?.headerLines.find((header) => header.key === "list-unsubscribe")?.line ?? "";
    const address = new URL(/<([^>]+)>/.exec(line)?.[1] ?? "");
    const path = `${address.pathname}${address.search}`;
    expect(path).toMatch(/^\/unsubscribe\//);

    const page = await request(server.url(path));
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    expect(visibleText(page.body)).toContain("Abbestellen");
    // Showing the page unsubscribes no one (mail scanners follow links).
    expect(await isSubscribed(database.db, family.id, "post")).toBe(true);

    const [, , token = ""] = address.pathname.split("/");
    // No server log may hold it (the run's teardown checks every log for the secrets noted).
    noteSecret(token);
    const forged = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [forged, "nothing", `${token}x`]) {
      const refused = await postForm(
        server,
        `/unsubscribe/${bad}`,
        { "List-Unsubscribe": "One-Click" },
        { origin: null },
      );
      expect(refused.status).toBe(400);
      expect(visibleText(refused.body)).toContain("not valid");
      expect((await request(server.url(`/unsubscribe/${bad}`))).status).toBe(400);
    }
    expect(await isSubscribed(database.db, family.id, "post")).toBe(true);
    expect(await isSubscribed(database.db, outsider.id, "post")).toBe(true);

    // RFC 8058: the mail program posts `List-Unsubscribe=One-Click`, without cookies or an Origin.
    const done = await postForm(server, path, { "List-Unsubscribe": "One-Click" }, { origin: null });
    expect(done.status).toBe(200);
    expect(await isSubscribed(database.db, family.id, "post")).toBe(false);
    expect(await isSubscribed(database.db, outsider.id, "post")).toBe(true);
    expect(await switchOf(family)).toBe("false");
  });
});
