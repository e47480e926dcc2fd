import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrations.server.ts";
import { insertMissingDefaults } from "#app/domains/settings/settings.server.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { changesIn, type OpenStream, openEventStream } from "#tests/support/event-stream.ts";
import { createUser } from "#tests/support/factories.ts";
import { canRunPrivatePostgres, PG_BIN_DIR, PrivatePostgres } from "#tests/support/private-postgres.ts";
import { skipUnlessAvailable } from "#tests/support/required-suites.ts";
import {
  type HttpResponse,
  postForm,
  type ServerProcess,
  startServer,
  TEST_AUTH_SECRET,
} from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";

// Issue 19 through a database restart, with two server processes on a private cluster: what a NOTIFY could not
// carry while the servers' listeners were away, the change_events table does; no event is lost or sent twice.

/** An admin's link save through a server: retried while the server still says the database is away (503). */
async function saveLink(server: ServerProcess, cookie: string, title: string): Promise<HttpResponse> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const fields = { intent: "create", title, url: "https://example.com/r", icon: "globe", active: "on" };
    const response = await postForm(server, "/admin/links", fields, { cookie });
    if (response.status !== 503 || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The events an admin's stream must carry after `seq`, as the table has them. */
async function adminEventsAfter(client: pg.Client, seq: number): Promise<number[]> {
  const { rows } = await client.query<{ seq: string }>(
    "SELECT seq FROM change_events WHERE seq > $1 AND audience <> 'nobody' ORDER BY seq",
    [seq],
  );
  return rows.map((row) => Number(row.seq));
}

/** The id a browser's EventSource would send back: the last message's that had one. */
const lastEventIdOf = (stream: OpenStream) => stream.messages.filter((message) => message.id !== undefined).at(-1)?.id;

const readySeqOf = (stream: OpenStream) => Number((stream.messages[0]?.data as { seq: number } | undefined)?.seq);

describe.skipIf(skipUnlessAvailable(canRunPrivatePostgres(), `PostgreSQL server binaries in ${PG_BIN_DIR}`))(
  "live streams while the PostgreSQL database restarts",
  () => {
    let cluster: PrivatePostgres;
    let serverA: ServerProcess;
    let serverB: ServerProcess;
    const dataDirs: string[] = [];
    const open: OpenStream[] = [];
    let cookie: string;
    // The post scheduler's tick that falls into the gap logs its failure and tries again at the next one
    // (as in database-restart.test.ts); nothing else may log an error.
    expectErrorLog('"msg":"Publishing scheduled posts failed"');

    const stream = async (server: ServerProcess, lastEventId?: string) => {
      const opened = await openEventStream(server.url("/api/events"), { cookie, lastEventId });
      open.push(opened);
      return opened;
    };

    beforeAll(async () => {
      cluster = await PrivatePostgres.create();
      const setup = openDatabase({ databaseUrl: cluster.url });
      try {
        await migrateToLatest(setup.db, setup.kind);
        await insertMissingDefaults(setup.db);
        const admin = await createUser(setup.db, { admin: true });
        const made = await createSessionCookie(setup.db, admin.id, TEST_AUTH_SECRET);
        cookie = `${made.name}=${made.value}`;
      } finally {
        await setup.close();
      }
      for (const name of ["a", "b"]) dataDirs.push(fs.mkdtempSync(path.join(os.tmpdir(), `vitrine-live-${name}-`)));
      serverA = await startServer({
        dataDir: dataDirs[0] ?? "",
        databaseUrl: cluster.url,
        authSecret: TEST_AUTH_SECRET,
      });
      serverB = await startServer({
        dataDir: dataDirs[1] ?? "",
        databaseUrl: cluster.url,
        authSecret: TEST_AUTH_SECRET,
      });
    });

    afterAll(async () => {
      for (const each of open) each.close();
      await serverA?.stop("SIGKILL");
      await serverB?.stop("SIGKILL");
      await cluster?.destroy();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it.each(["fast", "immediate"] as const)(
      "stopped with -m %s: carries every event to streams on both servers, once each, and replays to a stream dropped meanwhile",
      async (mode) => {
        const [onA, onB, dropped] = [await stream(serverA), await stream(serverB), await stream(serverA)];
        for (const each of [onA, onB, dropped]) await each.waitFor((message) => message.event === "ready");
        // Both listeners are connected before the restart: a save through A reaches B.
        expect((await saveLink(serverA, cookie, "Before the restart")).status).toBe(200);
        const client = new pg.Client({ connectionString: cluster.url });
        await client.connect();
        const before = await adminEventsAfter(client, 0);
        await client.end();
        const head = before.at(-1) ?? 0;
        for (const each of [onA, onB, dropped]) {
          await each.waitFor((message) => message.event === "change" && Number(message.id) >= head, 3000);
        }

        // A signed-in request while the database is away (the save, the stream's reconnection) makes better-auth print
        // its failed session read to stderr, stack and all, as it does for any signed-in page then: declared for the
        // rest of this test only.
        expectErrorLog(
          /^\(stderr\) (\S+ ERROR \[Better Auth\]: INTERNAL_SERVER_ERROR Error: connect ECONNREFUSED|\s+at |\s+(errno|code|syscall|address|port): |\}$)/,
        );
        // An immediate stop is a crash: the sequence behind seq may skip ahead at the recovery, which nothing may mind.
        await cluster.stop(mode);
        let directId: string;
        try {
          // No write can happen meanwhile: the save is refused, and nothing is sent for it.
          const refused = await postForm(
            serverB,
            "/admin/links",
            { intent: "create", title: "While stopped", url: "https://example.com/s", icon: "globe", active: "on" },
            { cookie },
          );
          expect(refused.status).toBe(503);
          // The browser's connection drops; trying again while the database is away is answered "later".
          dropped.close();
          const early = await openEventStream(serverA.url("/api/events"), { cookie, lastEventId: String(head) });
          expect(early.status).toBe(503);
          expect(Number(early.headers["retry-after"])).toBeGreaterThan(0);
          early.close();
        } finally {
          await cluster.start();
        }

        // Right after the start, another process writes directly. Whichever server's listener is back already is cut
        // off again before the commit, so that this NOTIFY reaches no one: only the table can tell them.
        const writer = new pg.Client({ connectionString: cluster.url });
        await writer.connect();
        try {
          await writer.query("BEGIN");
          const inserted = await writer.query<{ id: string }>(
            `INSERT INTO links (id, url, icon, title, title_de, active, sort_order, created_at, updated_at)
           VALUES (gen_random_uuid()::text, 'https://example.com/d', 'globe', 'Direct', '', true, 0, now(), now())
           RETURNING id`,
          );
          directId = inserted.rows[0]?.id ?? "";
          await writer.query(
            `SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
           WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN %'`,
          );
          await writer.query("COMMIT");
        } finally {
          await writer.end();
        }
        // And an admin saves through a server as soon as it can.
        const saved = await saveLink(serverB, cookie, "After the restart");
        expect(saved.status).toBe(200);

        const reader = new pg.Client({ connectionString: cluster.url });
        await reader.connect();
        try {
          for (const each of [onA, onB]) {
            const expected = await adminEventsAfter(reader, readySeqOf(each));
            const last = expected.at(-1) ?? 0;
            await each.waitFor((message) => message.event === "change" && Number(message.id) >= last, 10_000);
            expect(changesIn(each).map((event) => event.seq)).toEqual(expected);
            expect(each.messages.filter((message) => message.event !== "change").map((m) => m.event)).toEqual([
              "ready",
            ]);
            // The save before, the direct write and the save after: each link once.
            const links = changesIn(each).filter((event) => event.area === "links");
            expect(links).toHaveLength(3);
            expect(links.filter((event) => event.id === directId)).toHaveLength(1);
          }

          // The dropped stream comes back with the id it last had, and is given exactly what it missed.
          const lastId = lastEventIdOf(dropped);
          const resumed = await stream(serverA, lastId);
          const missed = await adminEventsAfter(reader, Number(lastId));
          const last = missed.at(-1) ?? 0;
          await resumed.waitFor((message) => message.event === "change" && Number(message.id) >= last, 5000);
          expect(changesIn(resumed).map((event) => event.seq)).toEqual(missed);
          expect(changesIn(resumed).some((event) => event.id === directId)).toBe(true);
        } finally {
          await reader.end();
        }
      },
      90_000,
    );
  },
);
