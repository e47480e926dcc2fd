import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIENCES } from "#app/domains/live/change-event.ts";
import { fileInOutbox, outboxIdFor } from "#app/domains/mail/outbox.server.ts";
import { isVisitorSetting, settingSpecs } from "#app/domains/settings/setting-registry.ts";
import {
  cookieFor,
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import { changesIn, type OpenStream, openEventStream } from "#tests/support/event-stream.ts";
import { createUser, insertLinkRow } from "#tests/support/factories.ts";
import { postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

// Issue 19: the change events, and GET /api/events carrying each to those who may see it, on both databases. The
// writes here go straight to the database, as another process (the CLI, a second server) makes them: the server
// learns of them from the table alone.

const now = () => new Date();

/** One write to every table that records events; a table with a trigger and no write here fails the test. */
async function writeEveryKind(database: TestDatabase, userId: string): Promise<Set<string>> {
  const db = database.db;
  const written = new Set<string>();
  const at = now();
  const content = { title_de: "", sort_order: 0, created_at: at, updated_at: at };
  await insertLinkRow(db, { title: "Shown link", active: true });
  await insertLinkRow(db, { title: "Hidden link", active: false });
  written.add("links");
  await db
    .insertInto("faq_entries")
    .values({
      id: randomUUID(),
      question: "Q?",
      question_de: "",
      answer: "A.",
      answer_de: "",
      sort_order: 0,
      active: false,
      created_at: at,
      updated_at: at,
    })
    .execute();
  written.add("faq_entries");
  await db
    .insertInto("videos")
    .values({
      id: randomUUID(),
      title: "V",
      description: "",
      description_de: "",
      embed_url: "https://youtu.be/dQw4w9WgXcQ",
      file_key: null,
      file_type: null,
      poster_image_id: null,
      active: true,
      ...content,
    })
    .execute();
  written.add("videos");
  const imageId = randomUUID();
  await db
    .insertInto("images")
    .values({
      id: imageId,
      original_key: `originals/${imageId}`,
      original_format: "png",
      width: 1,
      height: 1,
      placeholder: "",
      variants: "[]",
      watermark: "",
      ready: false,
      created_at: at,
    })
    .execute();
  written.add("images");
  await db
    .insertInto("gallery_images")
    .values({
      id: randomUUID(),
      image_id: imageId,
      title: "Draft picture",
      title_de: "",
      description: "",
      description_de: "",
      category: "",
      category_de: "",
      sort_order: 0,
      published: false,
      created_at: at,
      updated_at: at,
    })
    .execute();
  written.add("gallery_images");
  const post = {
    author_id: userId,
    title: "P",
    title_de: "",
    excerpt: "",
    excerpt_de: "",
    body: "",
    body_de: "",
    cover_image_id: null,
    cover_alt: "",
    cover_alt_de: "",
    created_at: at,
    updated_at: at,
  };
  await db
    .insertInto("posts")
    .values({
      id: randomUUID(),
      status: "draft",
      publish_at: null,
      slug: `d-${randomUUID()}`,
      slug_de: `d-de-${randomUUID()}`,
      ...post,
    })
    .execute();
  await db
    .insertInto("posts")
    .values({
      id: randomUUID(),
      status: "published",
      publish_at: at,
      slug: `p-${randomUUID()}`,
      slug_de: `p-de-${randomUUID()}`,
      ...post,
    })
    .execute();
  written.add("posts");
  // Every setting, so that one the registry marks for visitors but the trigger does not (or the other way round)
  // shows below.
  for (const key of Object.keys(settingSpecs)) {
    await db.updateTable("site_settings").set({ value: sql`value` }).where("key", "=", key).execute();
  }
  written.add("site_settings");
  await db
    .insertInto("invite_codes")
    .values({
      code: `LIVE-${randomUUID()}`,
      is_used: false,
      used_by: null,
      used_at: null,
      grants_role: null,
      note: null,
      created_at: at,
      sent_to: null,
    })
    .execute();
  written.add("invite_codes");
  const other = await createUser(db); // user, account, invite use, session-less
  written.add("user");
  await db.insertInto("user_roles").values({ user_id: other.id, role: "admin", created_at: at }).execute();
  written.add("user_roles");
  await cookieFor(database, other);
  await db.deleteFrom("session").where("userId", "=", other.id).execute();
  written.add("session");
  await db
    .insertInto("audit_log")
    .values({
      actor_id: userId,
      actor_email: "a@example.test",
      action: "test",
      target: "live",
      old_value: null,
      new_value: null,
      created_at: at,
    })
    .execute();
  written.add("audit_log");
  await db
    .insertInto("mail_failures")
    .values({
      recipient: "r@example.test",
      kind: "invite",
      subject: "S",
      reason: "R",
      created_at: at,
      dismissed_at: null,
    })
    .execute();
  written.add("mail_failures");
  await db
    .insertInto("contact_messages")
    .values({
      id: randomUUID(),
      name: "N",
      email: "n@example.test",
      message: "M",
      language: "en",
      created_at: at,
      read_at: null,
    })
    .execute();
  written.add("contact_messages");
  await fileInOutbox(db, {
    id: outboxIdFor("invite", at),
    raw: "From: a@example.test\r\nTo: r@example.test\r\nSubject: S\r\nX-Vitrine-Kind: invite\r\n\r\nText\r\n",
    filedAt: at,
  });
  written.add("outbox_mails");
  return written;
}

async function tablesWithEventTriggers(database: TestDatabase): Promise<Set<string>> {
  if (database.kind === "postgres") {
    const { rows } = await sql<{ table: string }>`select distinct c.relname as table from pg_trigger t
      join pg_class c on c.oid = t.tgrelid where t.tgname like '%\_event'`.execute(database.db);
    return new Set(rows.map((row) => row.table));
  }
  const { rows } = await sql<{ table: string }>`select distinct tbl_name as "table" from sqlite_master
    where type = 'trigger' and name like '%\_event\_%' escape '\\'`.execute(database.db);
  return new Set(rows.map((row) => row.table));
}

describe.each(databaseKinds)("live events over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let admin: { id: string };
  let adminCookie: string;
  let memberCookie: string;
  const open: OpenStream[] = [];

  const stream = async (options: Parameters<typeof openEventStream>[1] = {}) => {
    const opened = await openEventStream(server.url("/api/events"), options);
    open.push(opened);
    return opened;
  };

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind, { LIVE_MAX_STREAMS_PER_CLIENT: "50" }));
    ({ admin, adminCookie, memberCookie } = await signedInAdminAndMember(database));
  });

  afterAll(async () => {
    for (const each of open) each.close();
    await stopServerAndDatabase(server, database);
  });

  it("opens as an event stream that no proxy or compression holds back, with ready first", async () => {
    const visitor = await stream();
    expect(visitor.status).toBe(200);
    expect(visitor.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(visitor.headers["cache-control"]).toBe("no-cache, no-transform");
    expect(visitor.headers["x-accel-buffering"]).toBe("no");
    expect(visitor.headers["content-encoding"]).toBeUndefined();
    const ready = await visitor.waitFor((message) => message.event === "ready");
    expect(visitor.messages[0]).toBe(ready);
    expect(ready.id).toBe(String((ready.data as { seq: number }).seq));
  });

  it("carries every kind of change to whoever may see it, and no admin-only event to a visitor or a member", async () => {
    const [visitor, member, adminStream] = await Promise.all([
      stream(),
      stream({ cookie: memberCookie }),
      stream({ cookie: adminCookie }),
    ]);
    const ready = await adminStream.waitFor((message) => message.event === "ready");
    await visitor.waitFor((message) => message.event === "ready");
    await member.waitFor((message) => message.event === "ready");
    const start = (ready.data as { seq: number }).seq;

    const written = await writeEveryKind(database, admin.id);
    expect(written).toEqual(await tablesWithEventTriggers(database));

    const rows = await database.db
      .selectFrom("change_events")
      .selectAll()
      .where("seq", ">", start)
      .orderBy("seq")
      .execute();
    const events = rows.map((row) => ({ ...row, seq: Number(row.seq) }));
    const last = events[events.length - 1]?.seq ?? 0;
    // Another process's writes reach the streams within the feed's poll (a second) or its NOTIFY.
    await adminStream.waitFor((message) => message.event === "change" && Number(message.id) >= last, 3000);
    for (const event of events) expect(AUDIENCES, `${event.area} ${event.action}`).toContain(event.audience);
    const seqs = (audiences: string[]) =>
      events.filter((event) => audiences.includes(event.audience)).map((event) => event.seq);
    // A visitor and a member may have been sent the last "everyone" event a moment later than the admin.
    const everyone = seqs(["everyone"]);
    if (everyone.length > 0) {
      const lastShown = everyone[everyone.length - 1];
      await visitor.waitFor((message) => message.event === "change" && Number(message.id) >= (lastShown ?? 0));
      await member.waitFor((message) => message.event === "change" && Number(message.id) >= (lastShown ?? 0));
    }
    expect(changesIn(visitor).map((event) => event.seq)).toEqual(everyone);
    expect(changesIn(member).map((event) => event.seq)).toEqual(seqs(["everyone", "members"]));
    expect(changesIn(adminStream).map((event) => event.seq)).toEqual(seqs(["everyone", "members", "admins"]));

    // What each kind of write was told to whom, by area: the shown link and the published post reach visitors,
    // drafts, hidden rows, invites, users, audit, mail and messages only admins, a session's end nobody.
    const audienceOf = (area: string) => new Set(events.filter((event) => event.area === area).map((e) => e.audience));
    expect(audienceOf("links")).toEqual(new Set(["everyone", "admins"]));
    expect(audienceOf("posts")).toEqual(new Set(["everyone", "admins"]));
    expect(audienceOf("faq")).toEqual(new Set(["admins"]));
    expect(audienceOf("videos")).toEqual(new Set(["everyone"]));
    expect(audienceOf("gallery")).toEqual(new Set(["admins"]));
    for (const area of ["media", "invites", "users", "audit", "mail", "messages", "outbox"]) {
      expect(audienceOf(area), area).toEqual(new Set(["admins"]));
    }
    expect(audienceOf("sessions")).toEqual(new Set(["nobody"]));
    // Each setting's event goes to visitors exactly when the registry says visitors read it.
    for (const key of Object.keys(settingSpecs)) {
      const event = events.find((each) => each.area === "settings" && each.entity_id === key);
      expect(event?.audience, key).toBe(isVisitorSetting(key) ? "everyone" : "admins");
    }
    // No event names more than its row: no e-mail address, no text.
    const carried = JSON.stringify(adminStream.messages);
    expect(carried).not.toContain("@example.test");
    expect(carried).not.toContain("LIVE-");
  });

  it("records an admin's save in its own transaction and reaches an open admin list's stream within a second", async () => {
    const adminStream = await stream({ cookie: adminCookie });
    await adminStream.waitFor((message) => message.event === "ready");
    const response = await postForm(
      server,
      "/admin/links",
      { intent: "create", title: "Live link", url: "https://example.com/live", icon: "globe", active: "on" },
      { cookie: adminCookie },
    );
    expect(response.status).toBe(200);
    // From the save's answer (the commit is before it); the request's own time is the page's, not the stream's.
    const saved = Date.now();
    const message = await adminStream.waitFor(
      (each) => each.event === "change" && changesIn(adminStream).some((event) => event.area === "links"),
      1000,
    );
    expect(Date.now() - saved).toBeLessThan(1000);
    expect(message.event).toBe("change");
    // The save's audit entry travelled with it.
    await adminStream.waitFor(() => changesIn(adminStream).some((event) => event.area === "audit"), 1000);
  });

  it("replays what a returning client missed, and says reset when that is no longer kept", async () => {
    const first = await stream();
    const ready = await first.waitFor((message) => message.event === "ready");
    first.close();
    const id = await insertLinkRow(database.db, { title: "While away", active: true });
    const back = await stream({ lastEventId: ready.id });
    await back.waitFor(() => changesIn(back).some((event) => event.id === id));
    const replayed = changesIn(back).filter((event) => event.id === id);
    expect(replayed).toHaveLength(1);

    const lost = await stream({ lastEventId: "999999999" });
    await lost.waitFor((message) => message.event === "reset");
  });

  it("stops carrying admin events to a demoted admin at once, and closes a signed-out stream", async () => {
    const demoted = await createUser(database.db, { admin: true });
    const demotedStream = await stream({ cookie: await cookieFor(database, demoted) });
    await demotedStream.waitFor((message) => message.event === "ready");
    await database.db.deleteFrom("user_roles").where("user_id", "=", demoted.id).execute();
    const hiddenId = await insertLinkRow(database.db, { title: "Hidden", active: false });
    const bye = await demotedStream.waitFor((message) => message.event === "bye");
    expect(bye.data).toEqual({ reason: "role-changed" });
    await demotedStream.ended;
    // Neither the demotion itself nor the hidden row written right after it reached the stream.
    expect(changesIn(demotedStream).some((event) => event.area === "users" || event.id === hiddenId)).toBe(false);

    const member = await createUser(database.db);
    const memberStream = await stream({ cookie: await cookieFor(database, member) });
    await memberStream.waitFor((message) => message.event === "ready");
    await database.db.deleteFrom("session").where("userId", "=", member.id).execute();
    const gone = await memberStream.waitFor((message) => message.event === "bye");
    expect(gone.data).toEqual({ reason: "signed-out" });
  });

  it("refuses a stream beyond the per-address cap with 429 and Retry-After, and the site still answers", async () => {
    const address = "127.0.0.77";
    const held: OpenStream[] = [];
    for (let index = 0; index < 50; index++) held.push(await stream({ localAddress: address }));
    expect(held.every((each) => each.status === 200)).toBe(true);
    const refused = await stream({ localAddress: address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await request(server.url("/"))).status).toBe(200);
    // Another address is not affected.
    expect((await stream({ localAddress: "127.0.0.78" })).status).toBe(200);
    for (const each of held) each.close();
  });
});
