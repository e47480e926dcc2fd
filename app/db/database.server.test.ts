import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Generated, Kysely, SqliteDialect, sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { beginAccountAttempt, clearAccountFailures } from "#app/auth/account-throttle.server.ts";
import { FailedAttemptLimiter, sweepAttemptCounts } from "#app/auth/rate-limit.server.ts";
import { changeVersionWaits } from "#tests/support/change-version-waits.ts";
import { ROOT } from "#tests/support/server-process.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { cacheStatements, isDatabaseUnreachable, openDatabase } from "./database.server.ts";

/**
 * Another process (as the CLI or the seed script would be) writing to the same SQLite file. It waits for the
 * lock as busy_timeout would (5 s), but says "busy" when it first finds the file locked: `blocked` resolves then,
 * so a test knows the write is waiting without guessing how long it takes to get there.
 */
function writeFromAnotherProcess(file: string): {
  started: Promise<void>;
  blocked: Promise<void>;
  done: Promise<number | null>;
} {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(process.argv[1]);
    db.pragma("busy_timeout = 0");
    process.stdout.write("ready\\n");
    const insert = db.prepare("insert into site_settings (key, value) values ('from_cli', 'x')");
    for (let tries = 0; ; tries++) {
      try {
        insert.run();
        break;
      } catch (error) {
        if (error.code !== "SQLITE_BUSY" || tries >= 500) throw error;
        if (tries === 0) process.stdout.write("busy\\n");
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      }
    }
    db.close();
  `;
  const child = spawn(process.execPath, ["-e", script, file], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  let onReady!: () => void;
  let onBusy!: () => void;
  const started = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  const blocked = new Promise<void>((resolve) => {
    onBusy = resolve;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    if (output.includes("ready\n")) onReady();
    if (output.includes("busy\n")) onBusy();
  });
  const done = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { started, blocked, done };
}

describe("SQLite transactions", () => {
  const database = useTestDatabase("sqlite", "each");

  it("that read, then write, survive another process writing in between (no 'database is locked')", async () => {
    const file = database.location.sqliteFile ?? "";
    let other: ReturnType<typeof writeFromAnotherProcess> | undefined;

    await database.db.transaction().execute(async (trx) => {
      await trx.selectFrom("site_settings").select("key").execute();
      other = writeFromAnotherProcess(file);
      await other.started;
      // Until the other process has either written (with a deferred transaction it commits first, and this
      // write then fails) or found the file locked.
      await Promise.race([other.blocked, other.done]);
      await trx.insertInto("site_settings").values({ key: "from_server", value: "y" }).execute();
    });

    expect(await other?.done).toBe(0);
    const keys = await database.db
      .selectFrom("site_settings")
      .select("key")
      .where("key", "in", ["from_cli", "from_server"])
      .orderBy("key")
      .execute();
    expect(keys.map((row) => row.key)).toEqual(["from_cli", "from_server"]);
  });
});

describe.each(databaseKinds)("the change version (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const { until, listening } = changeVersionWaits(database, kind);

  it("moves with a write through this process and stays with reads and session writes", async () => {
    await listening();
    const start = database.changeVersion();
    await database.db.selectFrom("site_settings").selectAll().execute();
    expect(database.changeVersion()).toBe(start);
    await database.db.updateTable("site_settings").set({ value: "Renamed" }).where("key", "=", "site_name").execute();
    const afterWrite = database.changeVersion();
    expect(afterWrite).toBeGreaterThan(start);
    await database.db.deleteFrom("session").where("id", "=", "none").execute();
    // PostgreSQL also tells of the settings commit (its trigger's notification, a moment later): wait for that
    // notification itself, so that it cannot land between the two reads below.
    // (It may come before or after the read of afterWrite: count from the start, one for the write, one for it.)
    if (kind === "postgres") await until(() => database.changeVersion() >= start + 2);
    const settled = database.changeVersion();
    await database.db.deleteFrom("session").where("id", "=", "none").execute();
    expect(database.changeVersion()).toBe(settled);
  });

  it("stays with failed sign-ins counted and cleared (a password guesser must not empty the page cache)", async () => {
    await listening();
    const start = database.changeVersion();
    const events = async () => (await database.db.selectFrom("change_events").select("seq").execute()).length;
    const eventsBefore = await events();
    await beginAccountAttempt(database.db, "someone@example.com");
    await beginAccountAttempt(database.db, "someone@example.com");
    await clearAccountFailures(database.db, "someone@example.com");
    // The per-address limit too (attempt_counts): counted, refused, forgiven, swept.
    const perAddress = new FailedAttemptLimiter(database.db, "auth", 1);
    await perAddress.begin("203.0.113.9");
    await perAddress.begin("203.0.113.9");
    await perAddress.forgive("203.0.113.9");
    await sweepAttemptCounts(database.db);
    expect(database.changeVersion()).toBe(start);
    // And no change event is recorded for it (its table has no trigger).
    expect(await events()).toBe(eventsBefore);
  });

  it("moves when another connection commits (another process: the CLI, a second server)", async () => {
    await listening();
    const start = database.changeVersion();
    const other = openDatabase(database.location);
    try {
      await other.db.updateTable("site_settings").set({ value: "Elsewhere" }).where("key", "=", "site_name").execute();
    } finally {
      await other.close();
    }
    await until(() => database.changeVersion() > start);
  });

  it.runIf(kind === "sqlite")(
    "looks at SQLite once for the code that is running, and sees another connection's commit after it",
    async () => {
      const other = new SQLite(database.location.sqliteFile ?? "");
      try {
        const start = database.changeVersion();
        other.prepare("update site_settings set value = 'Elsewhere' where key = 'site_name'").run();
        // One go (a kept page's stamp asks for several areas): the answers agree, from one read transaction.
        expect(database.changeVersion()).toBe(start);
        await Promise.resolve();
        expect(database.changeVersion()).toBeGreaterThan(start);
      } finally {
        other.close();
      }
    },
  );
});

describe("the SQLite statement cache", () => {
  const setup = () => {
    const sqlite = new SQLite(":memory:");
    const prepare = vi.spyOn(sqlite, "prepare");
    const db = new Kysely<{ items: { id: Generated<number>; name: string } }>({
      dialect: new SqliteDialect({ database: cacheStatements(sqlite, 3) }),
    });
    return { sqlite, prepare, db };
  };

  it("prepares each SQL text once, and drops the least recently used beyond its size", async () => {
    const { prepare, db } = setup();
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    const byName = (name: string) => db.selectFrom("items").select("id").where("name", "=", name).execute();
    await byName("a");
    await byName("b");
    await byName("c");
    const selects = () => prepare.mock.calls.filter(([text]) => text.startsWith("select")).length;
    expect(selects()).toBe(1);
    // Three other texts push the select out of a cache of three; then it is prepared again, once.
    await db.selectFrom("items").select("name").execute();
    await db.selectFrom("items").select(["id", "name"]).execute();
    await db.selectFrom("items").selectAll().execute();
    await byName("d");
    await byName("e");
    expect(selects()).toBe(5);
    await db.destroy();
  });

  it("still answers writes with their affected rows and insert id, each time afresh", async () => {
    const { prepare, db } = setup();
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    for (const [index, name] of ["a", "b", "c"].entries()) {
      const inserted = await db.insertInto("items").values({ name }).executeTakeFirst();
      expect(inserted.insertId).toBe(BigInt(index + 1));
      expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    }
    const renamed = await db.updateTable("items").set({ name: "z" }).where("id", ">", 1).executeTakeFirst();
    expect(renamed.numUpdatedRows).toBe(2n);
    const none = await db
      .updateTable("items")
      .set({ name: "z" })
      .where("id", ">", 1)
      .where("name", "=", "x")
      .executeTakeFirst();
    expect(none.numUpdatedRows).toBe(0n);
    const deleted = await db.deleteFrom("items").where("id", "=", 1).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
    expect(await db.selectFrom("items").select(["id", "name"]).orderBy("id").execute()).toEqual([
      { id: 2, name: "z" },
      { id: 3, name: "z" },
    ]);
    expect(prepare.mock.calls.filter(([text]) => text.startsWith("insert"))).toHaveLength(1);
    await db.destroy();
  });

  it("streams through Kysely, also after a stream left early, and never hands out a statement still iterating", async () => {
    const { sqlite, db } = setup();
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    await db
      .insertInto("items")
      .values([{ name: "a" }, { name: "b" }, { name: "c" }])
      .execute();
    const all = () => db.selectFrom("items").select("name").orderBy("id");
    for await (const row of all().stream()) {
      // Left after the first row: the statement must be free again for the next use.
      expect(row.name).toBe("a");
      break;
    }
    const streamed: string[] = [];
    for await (const row of all().stream()) streamed.push(row.name);
    expect(streamed).toEqual(["a", "b", "c"]);
    expect((await all().execute()).map((item) => item.name)).toEqual(["a", "b", "c"]);

    // Below Kysely (which runs one query at a time on its connection): a statement mid-iteration is busy.
    const cache = cacheStatements(sqlite);
    const text = "select name from items order by id";
    const iterating = cache.prepare(text);
    const rows = iterating.iterate([]);
    expect(rows.next().value).toEqual({ name: "a" });
    const meanwhile = cache.prepare(text);
    expect(meanwhile).not.toBe(iterating);
    expect(meanwhile.all([])).toHaveLength(3);
    expect([...rows]).toEqual([{ name: "b" }, { name: "c" }]);
    expect(cache.prepare(text)).toBe(iterating);
    await db.destroy();
  });

  it("keeps the site's transactions immediate and its values plugin working on the cached statements", async () => {
    const database = openDatabase({
      sqliteFile: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-cache-")), "db.sqlite"),
    });
    try {
      await sql`create table flags (id integer primary key, on_off integer not null, at text not null)`.execute(
        database.db,
      );
      const db = database.db as unknown as Kysely<{ flags: { id: Generated<number>; on_off: boolean; at: Date } }>;
      for (const value of [true, false, true]) {
        await db.transaction().execute((trx) =>
          trx
            .insertInto("flags")
            .values({ on_off: value, at: new Date(0) })
            .execute(),
        );
      }
      expect(await db.selectFrom("flags").select(["on_off", "at"]).where("on_off", "=", true).execute()).toEqual([
        { on_off: 1, at: "1970-01-01T00:00:00.000Z" },
        { on_off: 1, at: "1970-01-01T00:00:00.000Z" },
      ]);
    } finally {
      await database.close();
    }
  });
});

describe("telling an unreachable database from a failed query", () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it("counts a refused or cut connection, a shutting-down server and pg's own connection messages", () => {
    expect(isDatabaseUnreachable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnreachable(withCode("terminating connection due to administrator command", "57P01"))).toBe(true);
    expect(isDatabaseUnreachable(withCode("the database system is starting up", "57P03"))).toBe(true);
    expect(isDatabaseUnreachable(withCode("connection failure", "08006"))).toBe(true);
    expect(isDatabaseUnreachable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnreachable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    // Wrapped by whoever caught it first.
    const cause = withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED");
    expect(isDatabaseUnreachable(new Error("Could not load the session", { cause }))).toBe(true);
  });

  it("does not count what a query or the data did wrong, on either database", () => {
    expect(isDatabaseUnreachable(withCode('syntax error at or near "selec"', "42601"))).toBe(false);
    expect(isDatabaseUnreachable(withCode("duplicate key value violates unique constraint", "23505"))).toBe(false);
    expect(isDatabaseUnreachable(withCode('relation "site_settings" does not exist', "42P01"))).toBe(false);
    expect(isDatabaseUnreachable(withCode("database is locked", "SQLITE_BUSY"))).toBe(false);
    expect(isDatabaseUnreachable(new Error("no such table: site_settings"))).toBe(false);
    expect(isDatabaseUnreachable("ECONNREFUSED")).toBe(false);
    expect(isDatabaseUnreachable(undefined)).toBe(false);
  });
});
