import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createGalleryPicture, storageIn } from "#tests/support/gallery-factories.ts";
import { request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * Issue 46: views counted on the server, over HTTP, on both databases. Each visitor here comes from an address of
 * its own (X-Forwarded-For behind TRUST_PROXY=1) with a user agent of its own, so that the test can look for both
 * in every table afterwards: none may hold them.
 */

const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Vq1";
const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1 Vq2";
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Vq3";
const ADDRESSES = ["203.0.113.71", "203.0.113.72", "203.0.113.73", "203.0.113.74", "203.0.113.75"];

type Row = { kind: string; key: string; views: number; visitors: number; member_views: number };

describe.each(databaseKinds)("statistics over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let picture: string;
  let memberCookie: string;
  let adminCookie: string;

  const env = { TRUST_PROXY: "1" };
  const visit = (path: string, from: { address: string; agent: string }, headers: Record<string, string> = {}) =>
    request(server.url(path), {
      headers: { "User-Agent": from.agent, "X-Forwarded-For": from.address, "Accept-Language": "en", ...headers },
    });

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind, env));
    const db = database.db;
    picture = await createGalleryPicture(db, storageIn(database.location.dataDir), {
      title: "Harbour",
      published: true,
    });
    const cookieOf = async (admin: boolean) => {
      const user = await createUser(db, { admin });
      const cookie = await createSessionCookie(db, user.id, TEST_AUTH_SECRET);
      return `${cookie.name}=${cookie.value}`;
    };
    [memberCookie, adminCookie] = [await cookieOf(false), await cookieOf(true)];
  }, 120_000);

  afterAll(() => stopServerAndDatabase(server, database));

  const rows = async (): Promise<Row[]> =>
    (await database.db.selectFrom("stats_daily").select(["kind", "key", "views", "visitors", "member_views"]).execute())
      .map((row) => ({
        ...row,
        views: Number(row.views),
        visitors: Number(row.visitors),
        member_views: Number(row.member_views),
      }))
      .sort((a, b) => `${a.kind} ${a.key}`.localeCompare(`${b.kind} ${b.key}`));
  const row = (all: Row[], kind: string, key: string) => all.find((entry) => entry.kind === kind && entry.key === key);

  /** The rows once the server has written at least `views` views of the whole site (it writes every few seconds). */
  async function written(views: number): Promise<Row[]> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const all = await rows();
      if ((row(all, "site", "")?.views ?? 0) >= views) return all;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return rows();
  }

  it("counts pages, navigations, pictures, searches and broken links, and no bot, admin, prefetch or revalidation", async () => {
    const desktop = { address: ADDRESSES[0] as string, agent: DESKTOP };
    const phone = { address: ADDRESSES[1] as string, agent: PHONE };
    expect((await visit("/?utm_source=Newsletter", desktop, { Referer: "https://www.example.org/links" })).status).toBe(
      200,
    );
    // A client-side navigation's data is a view; the same data asked for again (a revalidation) is not.
    expect((await visit("/blog.data", desktop)).status).toBe(200);
    expect((await visit("/blog.data", desktop)).status).toBe(200);
    expect((await visit(`/?image=${picture}`, desktop)).status).toBe(200);
    expect((await visit("/search?q=nothingatallhere", desktop)).status).toBe(200);
    expect((await visit("/search?q=harbour", desktop)).status).toBe(200);
    expect((await visit("/search?q=harbour&suggest=1", desktop)).status).toBe(200);
    expect((await visit("/gone-page", phone, { Referer: "https://old.example.net/post" })).status).toBe(404);
    expect((await visit("/", phone, { "Accept-Language": "de-DE,de;q=0.9,en;q=0.8" })).status).toBe(200);
    // Not counted: a bot, a visitor who asks not to be tracked, a prefetch, HEAD, a feed, an admin.
    expect((await visit("/home", { address: ADDRESSES[2] as string, agent: BOT })).status).toBe(200);
    expect((await visit("/home", phone, { "Sec-GPC": "1" })).status).toBe(200);
    expect((await visit("/home.data", phone, { "Sec-Purpose": "prefetch" })).status).toBe(200);
    expect((await request(server.url("/home"), { method: "HEAD", headers: { "User-Agent": PHONE } })).status).toBe(200);
    expect((await visit("/blog/feed.xml", phone)).status).toBe(200);
    expect(
      (await visit("/home", { address: ADDRESSES[3] as string, agent: DESKTOP }, { Cookie: adminCookie })).status,
    ).toBe(200);
    // A member's view is a member's, never by name.
    expect(
      (await visit("/home", { address: ADDRESSES[4] as string, agent: PHONE }, { Cookie: memberCookie })).status,
    ).toBe(200);

    const all = await written(7);
    expect(row(all, "site", "")).toMatchObject({ views: 7, visitors: 3, member_views: 1 });
    expect(row(all, "page", "/")).toMatchObject({ views: 3, visitors: 2 });
    expect(row(all, "page", "/blog")).toMatchObject({ views: 1, visitors: 1 });
    expect(row(all, "page", "/search")).toMatchObject({ views: 2, visitors: 1 });
    expect(row(all, "page", "/home")).toMatchObject({ views: 1, visitors: 1, member_views: 1 });
    expect(row(all, "picture", picture)).toMatchObject({ views: 1, visitors: 1 });
    expect(row(all, "search-empty", "nothingatallhere")).toMatchObject({ views: 1 });
    expect(row(all, "search", "harbour")).toMatchObject({ views: 1 });
    expect(row(all, "notfound", "/gone-page")).toMatchObject({ views: 1 });
    expect(row(all, "notfound-referrer", "/gone-page\nold.example.net")).toMatchObject({ views: 1 });
    expect(row(all, "referrer", "example.org")).toMatchObject({ views: 1 });
    expect(row(all, "utm", "newsletter")).toMatchObject({ views: 1 });
    expect(row(all, "language", "de")).toMatchObject({ views: 1 });
    expect(row(all, "device", "phone")).toMatchObject({ views: 2, visitors: 2 });
    expect(row(all, "audience", "member")).toMatchObject({ views: 1, visitors: 1 });
    expect(row(all, "entry", "/")).toMatchObject({ views: 2 });
    expect(all.filter((entry) => entry.kind === "page").map((entry) => entry.key)).toEqual([
      "/",
      "/blog",
      "/home",
      "/search",
    ]);
  });

  it("counts a page the page cache answers, as a rendered one", async () => {
    const views = async () => row(await rows(), "page", "/links")?.views ?? 0;
    const before = await views();
    const first = await visit("/links", { address: ADDRESSES[0] as string, agent: DESKTOP });
    const second = await visit("/links", { address: ADDRESSES[1] as string, agent: PHONE });
    expect([first.status, second.status, second.headers["x-vitrine-cache"]]).toEqual([200, 200, "hit"]);
    for (let attempt = 0; attempt < 100 && (await views()) < before + 2; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await views()).toBe(before + 2);
  });

  it("counts a picture opened in the lightbox by the page's small request, and no made-up one; the privacy page says how", async () => {
    const before = row(await rows(), "picture", picture)?.views ?? 0;
    const from = { address: ADDRESSES[1] as string, agent: PHONE };
    const madeUp = "00000000-0000-4000-8000-000000000000";
    // An address may name any id: the gallery's view counts, no picture does.
    expect((await visit(`/?image=${madeUp}`, from)).status).toBe(200);
    const seen = await visit(`/api/seen?picture=${picture}&page=%2F`, from);
    expect([seen.status, seen.headers["cache-control"], seen.body]).toEqual([204, "no-store", ""]);
    expect((await visit(`/api/seen?picture=${madeUp}&page=%2F`, from)).status).toBe(204);
    expect((await visit(`/api/seen?picture=${picture}&page=%2Fadmin`, from)).status).toBe(204);
    expect(
      (await visit(`/api/seen?picture=${picture}&page=%2F`, { address: ADDRESSES[2] as string, agent: BOT })).status,
    ).toBe(204);
    for (let attempt = 0; attempt < 100 && (row(await rows(), "picture", picture)?.views ?? 0) === before; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const all = await rows();
    expect(row(all, "picture", picture)?.views).toBe(before + 1);
    expect(row(all, "picture", madeUp)).toBeUndefined();
    expect(row(all, "page", "/admin")).toBeUndefined();
    // Read with Sec-GPC: these views are not counted, so the next test's count starts from a settled one.
    const english = await visit("/privacy", from, { "Sec-GPC": "1" });
    expect(english.body).toContain("Global Privacy Control");
    const german = await visit("/privacy?lang=de", from, { "Sec-GPC": "1" });
    expect(german.body).toContain("Besuche werden auf diesem Server gezählt, ohne Cookies");
  });

  it("keeps no address and no user agent in any table, and writes what it noted when the server stops", async () => {
    const before = (await rows()).find((entry) => entry.kind === "site")?.views ?? 0;
    expect((await visit("/links", { address: ADDRESSES[0] as string, agent: DESKTOP })).status).toBe(200);
    // Stopped at once: the view is written by the stop, not by the timer.
    expect(await server.stop()).toBe(0);
    expect(row(await rows(), "site", "")?.views).toBe(before + 1);
    server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
      env,
    });
    const tables = await tableNames();
    const found: string[] = [];
    for (const table of tables) {
      const { rows: all } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
      const text = JSON.stringify(all);
      for (const secret of [...ADDRESSES, "Vq1", "Vq2", "Vq3"])
        if (text.includes(secret)) found.push(`${table}: ${secret}`);
    }
    expect(found).toEqual([]);
    expect(tables).toContain("stats_seen");
  });

  it("counts nothing while the owner has turned statistics off", async () => {
    await database.db
      .insertInto("site_settings")
      .values({ key: "statistics_enabled", value: "false" })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: "false" }))
      .execute();
    const before = await rows();
    // The server reads the setting once it has seen the write.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await visit("/faq", { address: ADDRESSES[1] as string, agent: PHONE })).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(await rows()).toEqual(before);
    server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
      env,
    });
  });

  async function tableNames(): Promise<string[]> {
    if (kind === "postgres") {
      const { rows: all } = await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(database.db);
      return all.map((entry) => entry.name);
    }
    const { rows: all } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'
      and name not like 'sqlite_%'`.execute(database.db);
    return all.map((entry) => entry.name);
  }
});
