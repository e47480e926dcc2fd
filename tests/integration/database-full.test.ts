import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "#app/db/database.server.ts";
import { cookieFor } from "#tests/support/admin-server.ts";
import { runOnServer } from "#tests/support/database-template.ts";
import { expectErrorLog } from "#tests/support/error-logs.ts";
import { createUser } from "#tests/support/factories.ts";
import { skipUnlessAvailable } from "#tests/support/required-suites.ts";
import { postForm, request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { canMount, fillDisk, mountTmpfs, unmount } from "#tests/support/small-disk.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * A full disk under the database (issue 42): every admin write is answered 507, like an upload on a full disk, with
 * "The server's storage is full…" in the admin's language, and changes nothing; once space is freed, writes work
 * again in the same process.
 * The disk is a real one: on SQLite a small tmpfs holding DATA_DIR (the database, its write-ahead log); on PostgreSQL
 * a tablespace on a small tmpfs that holds the tables written here, so the server's own write fails with 53100
 * (disk_full) when it needs a new page. Mounting needs root; elsewhere the suite is skipped (CI must run it).
 */

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "";

/** The tables the writes below go to: they get the small disk on PostgreSQL, and are compared before and after. */
const WRITTEN = ["links", "faq_entries", "invite_codes", "audit_log", "change_events"] as const;

describe.skipIf(skipUnlessAvailable(canMount(), "root and a kernel that lets it mount a tmpfs")).each(databaseKinds)(
  "admin writes when the database's disk is full (%s)",
  (kind: DatabaseKind) => {
    let disk: string;
    let database: TestDatabase;
    let server: ServerProcess;
    let adminCookie: string;
    let tablespace: string | undefined;
    let filler: string | undefined;
    let mounted = false;
    // Each refused write is logged as an error for whoever looks after the server.
    expectErrorLog("the server's storage is full");

    beforeAll(async () => {
      disk = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-full-"));
      if (kind === "sqlite") {
        // Room for the migrated database and the server's folders; the test fills the rest.
        mountTmpfs(disk, 32 * 1024 * 1024);
        mounted = true;
        database = await createTestDatabase("sqlite", { dataDir: disk });
      } else {
        // PostgreSQL (running as postgres on this machine) keeps a tablespace's files in a folder it owns.
        mountTmpfs(disk, 8 * 1024 * 1024, "postgres");
        mounted = true;
        database = await createTestDatabase("postgres");
        tablespace = `vitrine_full_${randomBytes(6).toString("hex")}`;
        await runOnServer(SERVER_URL, `CREATE TABLESPACE ${tablespace} LOCATION '${disk}'`);
        for (const table of WRITTEN) {
          await sql`ALTER TABLE ${sql.table(table)} SET TABLESPACE ${sql.id(tablespace)}`.execute(database.db);
        }
      }
      server = await startServer({
        dataDir: database.location.dataDir,
        databaseUrl: database.location.databaseUrl,
        authSecret: TEST_AUTH_SECRET,
      });
      adminCookie = await cookieFor(database, await createUser(database.db, { admin: true }));
    });

    afterAll(async () => {
      if (filler) fs.rmSync(filler, { force: true });
      const code = await server?.stop();
      // The disk is let go of once nothing has a file open on it: the server, then this process's connection.
      await database?.close();
      if (kind === "sqlite") {
        if (mounted) unmount(disk);
        await database?.destroy();
      } else {
        // The tablespace can go once the database in it is dropped, and the disk once PostgreSQL has let go of it.
        await database?.destroy();
        if (tablespace) await runOnServer(SERVER_URL, `DROP TABLESPACE IF EXISTS ${tablespace}`);
        if (mounted) unmount(disk);
      }
      if (disk) fs.rmSync(disk, { recursive: true, force: true });
      expect(code).toBe(0);
    });

    /** What the writes could change: their rows, their audit entries, their change events. */
    async function snapshot(): Promise<Record<(typeof WRITTEN)[number], unknown[]>> {
      const tables = await Promise.all(
        WRITTEN.map(async (table) => {
          const { rows } = await sql`SELECT * FROM ${sql.table(table)}`.execute(database.db);
          return [table, rows.map((row) => JSON.stringify(row)).sort()] as const;
        }),
      );
      return Object.fromEntries(tables) as Record<(typeof WRITTEN)[number], unknown[]>;
    }

    /**
     * Waits until the background jobs the start ran at once (the sweeps) are done and none is due in the next few
     * seconds, while the disk is full: a job's own write refused there would be a failure of its own, not the admin's.
     */
    async function untilJobsQuiet() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const jobs = await database.db
          .selectFrom("jobs")
          .select(["state", "run_at"])
          .where("state", "in", ["queued", "running"])
          .execute();
        const soon = Date.now() + 3000;
        if (jobs.every((job) => job.state === "queued" && new Date(job.run_at).getTime() > soon)) return;
        if (Date.now() > deadline) throw new Error(`The start's jobs did not settle: ${JSON.stringify(jobs)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    // Posted as the admin screens send them (a fetcher's data request), which show the answer's message.
    const addLink = (lang: string) =>
      postForm(
        server,
        "/admin/links.data",
        { intent: "create", title: "On a full disk", url: "https://example.com/", icon: "globe", active: "on" },
        { cookie: `${adminCookie}; lang=${lang}` },
      );

    it("answers each admin write 507 in the admin's language, changes nothing, and writes again once space is freed", async () => {
      // What a first request of a session writes (its visit) is written now, while there is room.
      expect((await request(server.url("/admin/links"), { headers: { Cookie: adminCookie } })).status).toBe(200);
      if (kind === "sqlite") {
        // Empties the write-ahead log, so that the next write needs new room on the disk, not the log's old pages.
        const checkpoint = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db);
        expect(checkpoint.rows).toMatchObject([{ busy: 0 }]);
      }
      await untilJobsQuiet();
      const before = await snapshot();
      // Empty in a fresh database: on PostgreSQL a first row needs the table's first page, which a full disk refuses
      // (rows that fit on a page already there still go in: PostgreSQL asks the disk for room a page at a time).
      expect([before.links, before.faq_entries]).toEqual([[], []]);
      filler = fillDisk(disk);

      const link = await addLink("en");
      expect(link.status, link.body.slice(0, 300)).toBe(507);
      expect(link.body).toContain("The server's storage is full: nothing was saved.");

      const faq = await postForm(
        server,
        "/admin/faq.data",
        { intent: "create", question: "Voll?", answer: "Ja.", active: "on" },
        { cookie: `${adminCookie}; lang=de` },
      );
      expect(faq.status, faq.body.slice(0, 300)).toBe(507);
      expect(faq.body).toContain("Der Speicher des Servers ist voll");

      const invites = await postForm(
        server,
        "/admin/invites.data",
        { intent: "create", count: "2" },
        { cookie: adminCookie },
      );
      expect(invites.status, invites.body.slice(0, 300)).toBe(507);
      expect(invites.body).toContain("The server's storage is full");

      expect(await snapshot()).toEqual(before);

      fs.rmSync(filler);
      filler = undefined;
      // The same process takes writes again: nothing half-done was left behind by the refused ones.
      expect((await addLink("en")).status).toBe(200);
      const links = await database.db.selectFrom("links").select("title").execute();
      expect(links).toEqual([{ title: "On a full disk" }]);
    });
  },
);
