import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "#tests/support/server-process.ts";
import { useTestDatabase } from "#tests/support/test-database.ts";

/** Another process (as the CLI or the seed script would be) writing to the same SQLite file. */
function writeFromAnotherProcess(file: string): { started: Promise<void>; done: Promise<number | null> } {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(process.argv[1]);
    db.pragma("busy_timeout = 5000");
    process.stdout.write("ready\\n");
    db.prepare("insert into site_settings (key, value) values ('from_cli', 'x')").run();
    db.close();
  `;
  const child = spawn(process.execPath, ["-e", script, file], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const started = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  const done = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { started, done };
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
      // Time for the other process to write (and, with a deferred transaction, to commit first).
      await new Promise((resolve) => setTimeout(resolve, 300));
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
