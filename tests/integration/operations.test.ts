import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { signedInAdminAndMember, startServerOnFreshDatabase } from "#tests/support/admin-server.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/** Servers and databases of the running test, removed whatever happens. */
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function start(kind: TestDatabase["kind"], env: Record<string, string> = {}) {
  const started = await startServerOnFreshDatabase(kind, env);
  cleanup.push(() => started.database.destroy());
  cleanup.push(() => started.server.stop("SIGKILL"));
  return started;
}

/** The request lines logged so far for a path, waiting a moment for the one of a response just read. */
async function requestLines(server: ServerProcess, pathname: string, count = 1) {
  const find = () => server.logLines().filter((line) => line.msg === "request" && line.path === pathname);
  for (let tries = 0; tries < 100 && find().length < count; tries++) await new Promise((r) => setTimeout(r, 20));
  // Asking for none: wait until what was logged is surely written, or the absence would prove nothing.
  if (count === 0)
    return (await server.writtenLogLines()).filter((line) => line.msg === "request" && line.path === pathname);
  return find();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(databaseKinds)("health endpoints (%s)", (kind) => {
  it("answers /healthz and /readyz with JSON, no session, never from the page cache", async () => {
    const { server, database } = await start(kind);
    for (let round = 0; round < 2; round++) {
      const health = await request(server.url("/healthz"));
      expect(health.status).toBe(200);
      expect(health.headers["content-type"]).toMatch(/^application\/json/);
      expect(health.headers["cache-control"]).toBe("no-store");
      expect(health.headers["x-vitrine-cache"]).toBeUndefined();
      expect(health.cookies).toEqual([]);
      expect(JSON.parse(health.body)).toEqual({ status: "ok" });

      const ready = await request(server.url("/readyz"));
      expect(ready.status).toBe(200);
      expect(ready.headers["x-vitrine-cache"]).toBeUndefined();
      expect(JSON.parse(ready.body)).toEqual({ status: "ok", checks: { database: "ok", storage: "ok" } });
    }
    // Not in the request log at the default level; the probe files are gone.
    expect(await requestLines(server, "/", 0)).toEqual([]);
    expect((await server.writtenLogLines()).filter((line) => String(line.path).endsWith("z"))).toEqual([]);
    expect(fs.readdirSync(database.location.dataDir).filter((name) => name.startsWith(".ready-"))).toEqual([]);
  });

  it("answers /readyz with 503 while the storage cannot be written, and 200 again after", async () => {
    // The storage sweeps that fall into the time without storage fail too, and say so.
    expectErrorLog(/"msg":"Sweeping unreferenced [a-z ]+ failed"/);
    const { server, database } = await start(kind);
    const storage = path.join(database.location.dataDir, "storage");
    // As root (CI) a chmod does not stop a write: the folder is swapped for a file, which nobody can write into.
    fs.mkdirSync(storage, { recursive: true });
    fs.renameSync(storage, `${storage}.away`);
    fs.writeFileSync(storage, "not a folder");
    try {
      const ready = await request(server.url("/readyz"));
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({ status: "unavailable", checks: { database: "ok", storage: "failed" } });
      expect((await request(server.url("/healthz"))).status).toBe(200);
      const warning = await server.waitForLogLine((line) => line.msg === "not ready");
      expect(warning).toMatchObject({ check: "storage", level: 40 });
      expect(warning).not.toHaveProperty("stack");
    } finally {
      fs.rmSync(storage);
      fs.renameSync(`${storage}.away`, storage);
    }
    expect((await request(server.url("/readyz"))).status).toBe(200);
  });

  it.runIf(kind === "postgres")("answers /readyz with 503 when the database is gone", async () => {
    const { server, database } = await start(kind);
    // Background work still running from the start (the storage sweeps, a settings read) meets the dropped
    // database and says so: expected here, whichever of them is still under way. A query in flight at the drop
    // is cut off by the server ("terminating connection…", then the client's "terminated unexpectedly", or a
    // "read ECONNRESET" when the socket's reset reaches the client first); one begun after it finds no database.
    expectErrorLog(/database \\?"vitrine_test_\w+\\?" does not exist/);
    expectErrorLog("terminating connection due to administrator command");
    expectErrorLog("Connection terminated unexpectedly");
    expectErrorLog("read ECONNRESET");
    // Drops the database (closing every connection to it): the server's pool cannot reconnect.
    await database.destroy();
    const ready = await request(server.url("/readyz"));
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: "unavailable", checks: { database: "failed", storage: "ok" } });
    expect((await request(server.url("/healthz"))).status).toBe(200);
  });
});

describe("request log", () => {
  it("logs one JSON line per request, with its id (also answered), method, path, status and duration", async () => {
    const { server } = await start("sqlite");
    const first = await request(server.url("/faq"));
    const second = await request(server.url("/faq"));
    expect(second.headers["x-vitrine-cache"]).toBe("hit");
    for (const response of [first, second]) expect(response.headers["x-request-id"]).toMatch(UUID);
    expect(first.headers["x-request-id"]).not.toBe(second.headers["x-request-id"]);

    // The kept page's fast path is logged as well as the rendered one.
    const lines = await requestLines(server, "/faq", 2);
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => line.reqId)).toEqual([first.headers["x-request-id"], second.headers["x-request-id"]]);
    for (const line of lines) {
      expect(line).toMatchObject({ level: 30, method: "GET", status: 200 });
      expect(line.durationMs).toEqual(expect.any(Number));
      expect(typeof line.time).toBe("number");
    }
  });

  it("logs no secret query value (signed media URLs, invite links), only the path", async () => {
    const { server } = await start("sqlite");
    await request(server.url("/media-private/originals/x.jpg?expires=1&sig=SECRETSIGNATURE123"));
    await request(server.url("/auth?invite=ABCD-EFGH-JKLM-NPQR&mode=sign-up"));
    const [media] = await requestLines(server, "/media-private/originals/x.jpg");
    expect(media).toMatchObject({ query: "expires=1&sig=[redacted]" });
    const [auth] = await requestLines(server, "/auth");
    expect(auth).toMatchObject({ query: "invite=[redacted]&mode=sign-up", status: 200 });
    expect(server.stdout).not.toContain("SECRETSIGNATURE123");
    expect(server.stdout).not.toContain("ABCD-EFGH");
  });

  it("takes a proxy's X-Request-Id only behind TRUST_PROXY and only in a plain form", async () => {
    const direct = (await start("sqlite")).server;
    const ignored = await request(direct.url("/healthz"), { headers: { "X-Request-Id": "proxy-1234567890" } });
    expect(ignored.headers["x-request-id"]).toMatch(UUID);

    const proxied = (await start("sqlite", { TRUST_PROXY: "1" })).server;
    const taken = await request(proxied.url("/links"), { headers: { "X-Request-Id": "proxy-1234567890" } });
    expect(taken.headers["x-request-id"]).toBe("proxy-1234567890");
    expect(await requestLines(proxied, "/links")).toMatchObject([{ reqId: "proxy-1234567890" }]);
    for (const bad of ["short", "has spaces in it here", `x${"a".repeat(200)}`, "<script>alert(1)</script>"]) {
      const replaced = await request(proxied.url("/healthz"), { headers: { "X-Request-Id": bad } });
      expect(replaced.headers["x-request-id"]).toMatch(UUID);
    }
  });

  it("honours LOG_LEVEL: warn logs no request line, debug logs health checks too", async () => {
    const quiet = (await start("sqlite", { LOG_LEVEL: "warn" })).server;
    await request(quiet.url("/faq"));
    expect((await quiet.writtenLogLines()).filter((line) => line.msg === "request")).toEqual([]);
    expect(quiet.stdout).not.toContain("Vitrine is running on http");

    const chatty = (await start("sqlite", { LOG_LEVEL: "debug" })).server;
    await request(chatty.url("/healthz"));
    expect(await requestLines(chatty, "/healthz")).toMatchObject([{ level: 20, status: 200 }]);
  });
});

describe("refused requests", () => {
  it("answers a non-admin's GET of a POST-only admin address with 403, an admin's with 405, and logs no stack", async () => {
    const { server, database } = await start("sqlite");
    const { adminCookie, memberCookie } = await signedInAdminAndMember(database);
    for (const pathname of ["/admin/uploads/gallery", "/admin/uploads/videos", "/admin/markdown-preview"]) {
      const member = await request(server.url(pathname), { headers: { Cookie: memberCookie } });
      expect(member.status).toBe(403);
      const admin = await request(server.url(pathname), { headers: { Cookie: adminCookie } });
      expect(admin.status).toBe(405);
      expect(admin.headers.allow).toBe("POST");
    }
    const site = await request(server.url("/admin/uploads/site/logo"), { headers: { Cookie: memberCookie } });
    expect(site.status).toBe(403);
    // A visitor posting to a page without an action.
    const visitor = await postForm(server, "/faq", { anything: "1" });
    expect(visitor.status).toBe(405);
    const signedIn = await postForm(server, "/links", { anything: "1" }, { cookie: memberCookie });
    expect(signedIn.status).toBe(405);

    await requestLines(server, "/links");
    expect(await server.writtenStdout()).not.toMatch(/\bat \S+ \(|"stack"|"err"/);
    expect(server.stderr).toBe("");
    expect(await requestLines(server, "/faq")).toMatchObject([{ method: "POST", status: 405 }]);
  });
});
