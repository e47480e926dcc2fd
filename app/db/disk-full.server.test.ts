import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseFull } from "./disk-full.server.ts";

/** SQLite's own "database or disk is full", made without a full disk: the file may not grow past its size. */
function sqliteFullError(): unknown {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-disk-full-"));
  const sqlite = new SQLite(path.join(folder, "full.sqlite"));
  try {
    sqlite.exec("CREATE TABLE t (x TEXT)");
    sqlite.pragma(`max_page_count = ${sqlite.pragma("page_count", { simple: true })}`);
    sqlite.prepare("INSERT INTO t VALUES (?)").run("x".repeat(64 * 1024));
    return null;
  } catch (error) {
    return error;
  } finally {
    sqlite.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

describe("telling a database's full disk from other failures", () => {
  it("knows SQLite's SQLITE_FULL and PostgreSQL's disk_full (53100), also as a cause", () => {
    const sqlite = sqliteFullError();
    expect(sqlite).toMatchObject({ code: "SQLITE_FULL" });
    expect(isDatabaseFull(sqlite)).toBe(true);
    const postgres = Object.assign(new pg.DatabaseError('could not extend file "base/1/2"', 0, "error"), {
      code: "53100",
    });
    expect(isDatabaseFull(postgres)).toBe(true);
    expect(isDatabaseFull(new Error("saving the link failed", { cause: postgres }))).toBe(true);
  });

  it("leaves every other failure a fault", () => {
    const other = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ["SQLITE_CONSTRAINT", "SQLITE_BUSY", "SQLITE_IOERR", "53300", "23505"]) {
      expect(isDatabaseFull(other(code)), code).toBe(false);
    }
    expect(isDatabaseFull("SQLITE_FULL")).toBe(false);
    expect(isDatabaseFull(undefined)).toBe(false);
  });
});
