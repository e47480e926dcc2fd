import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toIsoString } from "#app/db/values.ts";
import { cookieFor, visibleText } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { request, type ServerProcess, startServer, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const HOUR = 3_600_000;

/** A file with its modification time `ageMs` ago (the sweep's grace period is decided by it). */
async function leaveFile(file: string, ageMs: number): Promise<string> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, "left behind");
  const then = new Date(Date.now() - ageMs);
  await fsp.utimes(file, then, then);
  return file;
}

/**
 * Issue 42, item 3: the storage sweep is a recurring job (every 6 h), so a restart did not sweep: a crash's orphaned
 * files and temporary upload files stayed for up to six hours. A start brings its turn forward; the dashboard shows
 * what the last sweep removed.
 */
describe.each(databaseKinds)("the storage sweep at start (%s)", (kind) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  const start = async (database: TestDatabase): Promise<ServerProcess> => {
    const server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
    });
    cleanup.push(() => server.stop("SIGKILL"));
    return server;
  };

  /** When the recurring sweep's next turn is, once it is waiting for it (not running). */
  const nextTurn = async (database: TestDatabase): Promise<number | null> => {
    const row = await database.db
      .selectFrom("jobs")
      .select(["state", "run_at"])
      .where("id", "=", "every:sweep.storage")
      .executeTakeFirst();
    return row?.state === "queued" ? Date.parse(toIsoString(row.run_at)) : null;
  };

  it("removes a crash's stale leftovers when the server starts again, spares files in grace, and the dashboard counts them", async () => {
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.destroy());
    const { dataDir } = database.location;

    // A site that ran before: its first start swept and set the next turn six hours ahead.
    const first = await start(database);
    await vi.waitFor(async () => expect(await nextTurn(database)).toBeGreaterThan(Date.now() + 5 * HOUR), {
      timeout: 15_000,
      interval: 100,
    });
    expect(await first.stop()).toBe(0);

    // What a crash two hours ago left (past the one-hour grace), and what an upload in flight holds now.
    const storage = path.join(dataDir, "storage");
    const stale = [
      await leaveFile(path.join(storage, "public", "images", "crashed-upload", "w320.webp"), 2 * HOUR),
      await leaveFile(path.join(storage, "private", "originals", "crashed-upload.jpg"), 2 * HOUR),
      await leaveFile(path.join(dataDir, "tmp", "uploads", "upload-crashed.part"), 2 * HOUR),
    ];
    const inGrace = [
      await leaveFile(path.join(storage, "public", "images", "in-flight", "w320.webp"), 60_000),
      await leaveFile(path.join(dataDir, "tmp", "uploads", "upload-in-flight.part"), 60_000),
    ];

    const second = await start(database);
    await vi.waitFor(() => expect(stale.filter((file) => fs.existsSync(file))).toEqual([]), {
      timeout: 15_000,
      interval: 100,
    });
    expect(inGrace.filter((file) => !fs.existsSync(file))).toEqual([]);
    // One turn at start; the next is again six hours ahead.
    await vi.waitFor(async () => expect(await nextTurn(database)).toBeGreaterThan(Date.now() + 5 * HOUR), {
      timeout: 15_000,
      interval: 100,
    });

    const admin = await createUser(database.db, { admin: true });
    const cookie = await cookieFor(database, admin);
    const dashboard = async (query: string) => {
      const response = await request(second.url(`/admin${query}`), { headers: { Cookie: cookie } });
      expect(response.status).toBe(200);
      const line = /data-testid="storage-health"[^>]*>([\s\S]*?)<\/p>/.exec(response.body)?.[1] ?? "";
      return visibleText(line).trim();
    };
    expect(await dashboard("")).toMatch(
      /^Last clean-up of unused files: .+ UTC\. Stored files no one uses, removed: 2\. Stale temporary upload files, removed: 1\.$/,
    );
    expect(await dashboard("?lang=de")).toMatch(
      /^Letzte Bereinigung ungenutzter Dateien: .+ UTC\. Gespeicherte Dateien, die nichts mehr verwendet, entfernt: 2\. Veraltete temporäre Upload-Dateien, entfernt: 1\.$/,
    );
  });
});
