import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { canRunPrivatePostgres, PG_BIN_DIR, PrivatePostgres } from "#tests/support/private-postgres.ts";
import { skipUnlessAvailable } from "#tests/support/required-suites.ts";
import { request, type ServerProcess, startServer } from "#tests/support/server-process.ts";

/** Pages a visitor asks for, some kept by the page cache, some not (the API, a query never asked before). */
const PATHS = ["/", "/?page=2", "/links", "/faq", "/videos", "/api/settings", "/auth", "/?lang=de"];

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

type Answer = { at: number; status: number | string; path: string };

/** A few visitors asking one page after another, each on a new connection, until stopped. */
function startLoad(server: ServerProcess, visitors = 4) {
  const answers: Answer[] = [];
  let running = true;
  let sequence = 0;
  const visitor = async () => {
    while (running) {
      const base = PATHS[sequence % PATHS.length] ?? "/";
      // Every third one a page not asked before, so it is rendered rather than sent from the page cache.
      const fixed = sequence % 3 === 0 ? `${base}${base.includes("?") ? "&" : "?"}n=${sequence}` : base;
      sequence++;
      try {
        const response = await request(server.url(fixed));
        answers.push({ at: Date.now(), status: response.status, path: fixed });
      } catch (error) {
        answers.push({ at: Date.now(), status: (error as NodeJS.ErrnoException).code ?? String(error), path: fixed });
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const done = Promise.all(Array.from({ length: visitors }, visitor));
  return {
    answers,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Asks for `/` until it answers 200; returns how long that took. */
async function millisecondsUntilServing(server: ServerProcess, limitMs = 15_000): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    const response = await request(server.url(`/?until=${Date.now()}`)).catch(() => null);
    if (response?.status === 200) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Number.POSITIVE_INFINITY;
}

describe.skipIf(skipUnlessAvailable(canRunPrivatePostgres(), `PostgreSQL server binaries in ${PG_BIN_DIR}`))(
  "the site while its PostgreSQL restarts",
  () => {
    let cluster: PrivatePostgres;
    let server: ServerProcess;
    let dataDir: string;
    // Every test here takes the database away; the post scheduler's tick that falls into the gap logs its failure
    // (and tries again at the next tick). Nothing else may log an error.
    expectErrorLog('"msg":"Publishing scheduled posts failed"');

    beforeAll(async () => {
      cluster = await PrivatePostgres.create();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-restart-"));
      server = await startServer({ dataDir, databaseUrl: cluster.url });
    });

    afterAll(async () => {
      await server?.stop("SIGKILL");
      await cluster?.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it.each(["fast", "immediate"] as const)(
      "keeps running through `pg_ctl restart -m %s`: every answer is 200 or 503, and pages are back within 5 s",
      async (mode) => {
        const load = startLoad(server);
        await new Promise((resolve) => setTimeout(resolve, 500));
        await cluster.restart(mode);
        const back = Date.now();
        const waited = await millisecondsUntilServing(server);
        // Keep asking a little longer: once back, it stays back.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await load.stop();

        expect(server.child.exitCode, server.stderr).toBeNull();
        expect(waited).toBeLessThan(5000);
        const statuses = new Set(load.answers.map((answer) => answer.status));
        expect(
          [...statuses].filter((status) => status !== 200 && status !== 503),
          server.stderr,
        ).toEqual([]);
        expect(load.answers.filter((answer) => answer.at > back + waited + 200 && answer.status !== 200)).toEqual([]);
        expect(`${server.stdout}${server.stderr}`).not.toMatch(/Unhandled|uncaught/i);
      },
      60_000,
    );

    it("keeps running when its connections are cut (pg_terminate_backend)", async () => {
      const load = startLoad(server);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      for (let round = 0; round < 5; round++) {
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
        );
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await admin.end();
      const waited = await millisecondsUntilServing(server);
      await load.stop();

      expect(server.child.exitCode, server.stderr).toBeNull();
      expect(waited).toBeLessThan(5000);
      const statuses = new Set(load.answers.map((answer) => answer.status));
      expect(
        [...statuses].filter((status) => status !== 200 && status !== 503),
        server.stderr,
      ).toEqual([]);
    });

    it("answers 503 with a clear page in the visitor's language while the database is stopped, and 200 once it is back", async () => {
      const loggedBefore = server.stdout.length;
      await cluster.stop("fast");
      try {
        const english = await request(server.url("/faq"), { headers: { Accept: BROWSER_ACCEPT } });
        expect(english.status).toBe(503);
        expect(english.headers["content-type"]).toMatch(/^text\/html/);
        expect(english.headers["cache-control"]).toBe("no-store");
        expect(Number(english.headers["retry-after"])).toBeGreaterThan(0);
        expect(english.body).toContain("cannot reach its database");
        expect(english.body).not.toMatch(/ECONNREFUSED|\n\s+at /);
        // In the site's look: its own stylesheet.
        expect(english.body).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css">/);

        const german = await request(server.url("/faq"), { headers: { Accept: BROWSER_ACCEPT, Cookie: "lang=de" } });
        expect(german.status).toBe(503);
        expect(german.body).toContain('lang="de"');
        expect(german.body).toContain("erreicht ihre Datenbank gerade nicht");

        // Client navigation and the API say the same, in the way each is read.
        const data = await request(server.url("/faq.data"));
        expect(data.status).toBe(503);
        expect(data.body).toContain("cannot reach its database");
        const api = await request(server.url("/api/settings"), { headers: { Accept: BROWSER_ACCEPT } });
        expect(api.status).toBe(503);
        expect(JSON.parse(api.body)).toEqual({ error: expect.stringContaining("cannot reach its database") });
        // Not one of these is a stack in the log either: one line each.
        expect(server.stdout.slice(loggedBefore)).not.toMatch(/"stack"/);
        expect(server.stderr).not.toMatch(/\n\s+at /);
      } finally {
        await cluster.start();
      }
      const back = await millisecondsUntilServing(server);
      expect(back).toBeLessThan(5000);
      expect((await request(server.url("/faq"))).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    }, 60_000);
  },
);
