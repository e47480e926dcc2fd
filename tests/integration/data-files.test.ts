import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createUser } from "#tests/support/factories.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import { cleanEnv, run, startServer } from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { createTestDatabase } from "#tests/support/test-database.ts";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Every directory and file under `root` with its permission bits, as `path mode` lines (octal). */
function modesUnder(root: string): string[] {
  const lines: string[] = [];
  const visit = (at: string) => {
    const stat = fs.statSync(at);
    lines.push(`${path.relative(root, at) || "."} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) visit(path.join(at, name));
  };
  visit(root);
  return lines;
}

/** Runs a command under the usual shell umask (022: new files readable by everyone), as a service manager might. */
const withUmask022 = (command: string, args: string[]): [string, string[]] => [
  "sh",
  ["-c", 'umask 022 && exec "$@"', "sh", command, ...args],
];

describe("files under DATA_DIR", () => {
  it("are readable by the site's user only, whatever the umask: directories 0700, files 0600", async () => {
    const database = await createTestDatabase("sqlite");
    cleanup.push(() => database.destroy());
    const { dataDir, sqliteFile } = database.location;
    // As a DATA_DIR made by hand and a database left by an older version would be.
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(sqliteFile ?? "", 0o644);

    const server = await startServer({ dataDir, launch: withUmask022 });
    cleanup.push(() => server.stop("SIGKILL"));
    // The server's own secret, an upload (original, sizes, temp file) and the database's WAL are all written now.
    const secret = fs.readFileSync(path.join(dataDir, "auth-secret"), "utf8").trim();
    expect(secret.length).toBeGreaterThan(30);
    const admin = await createUser(database.db, { admin: true });
    const session = await createSessionCookie(database.db, admin.id, secret);
    const upload = await postMultipart(
      server,
      "/admin/uploads/gallery",
      [
        {
          field: "file",
          filename: "photo.jpg",
          type: "image/jpeg",
          data: await testPhoto({ width: 800, height: 600 }),
        },
      ],
      { cookie: `${session.name}=${session.value}`, accept: "application/json" },
    );
    expect(upload.status).toBe(200);
    // While the server runs: the database's write-ahead log and shared memory (the test's own connection made them
    // when the database was still 0644).
    const running = modesUnder(dataDir);
    expect(running).toContain("vitrine.sqlite-wal 600");
    expect(running).toContain("vitrine.sqlite-shm 600");
    expect(await server.stop()).toBe(0);

    const modes = modesUnder(dataDir);
    expect(modes).toContain("vitrine.sqlite 600");
    expect(modes).toContain("auth-secret 600");
    expect(modes.some((line) => line.startsWith("storage/"))).toBe(true);
    for (const line of modes) {
      const [name, mode] = line.split(" ");
      const isDirectory = fs.statSync(path.join(dataDir, name ?? "")).isDirectory();
      expect(line).toBe(`${name} ${isDirectory ? "700" : "600"}`);
      expect(mode).toMatch(/00$/);
    }
  }, 120_000);

  it("made by the command line are private too", async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-cli-modes-")), "data");
    cleanup.push(async () => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));
    const result = await run(
      "sh",
      ["-c", "umask 022 && exec npm run --silent cli -- invites create"],
      cleanEnv({ DATA_DIR: dataDir }),
      90_000,
    );
    expect(result.code).toBe(0);
    const modes = modesUnder(dataDir);
    expect(modes).toContain(". 700");
    expect(modes).toContain("vitrine.sqlite 600");
    for (const line of modes) expect(line).toMatch(/ (600|700)$/);
  }, 120_000);
});
