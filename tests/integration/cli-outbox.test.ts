import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recoveryEn } from "#app/i18n/recovery.en.ts";
import { startServerOnFreshDatabase, stopServerAndDatabase, visibleText } from "#tests/support/admin-server.ts";
import { createUser, strongPassword } from "#tests/support/factories.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import {
  cleanEnv,
  type ProcessResult,
  postForm,
  request,
  run,
  type ServerProcess,
} from "#tests/support/server-process.ts";
import { outboxIds, readNewestOutboxMail } from "#tests/support/smtp-server.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

// A server and several command-line calls (npm and tsx start in a few seconds each on a busy machine).
vi.setConfig({ testTimeout: 180_000 });

/** `npm run cli -- outbox …` with a site's settings, as an owner on the server's machine types it. */
function outboxOf(location: { dataDir: string; databaseUrl?: string }, ...args: string[]): Promise<ProcessResult> {
  const env = cleanEnv({ DATA_DIR: location.dataDir, DATABASE_URL: location.databaseUrl });
  return run("npm", ["run", "cli", "--", "outbox", ...args], env, 90_000);
}

describe.each(databaseKinds)("reading the outbox on the command line (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  // The outbox is in the database: the CLI reads it with the server's DATA_DIR and DATABASE_URL.
  const outbox = (...args: string[]) => outboxOf(database.location, ...args);
  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
  });
  afterAll(async () => {
    await stopServerAndDatabase(server, database);
  });

  it("prints the newest mail decoded, so that a lone owner's reset link works when pasted", async () => {
    const owner = await createUser(database.db, { admin: true });
    const asked = await postForm(server, "/auth/forgot", { email: owner.email }, { localAddress: "127.0.9.1" });
    expect(asked.status).toBe(200);
    // Without SMTP_URL the answer says where the link went, and how its owner reads it.
    expect(visibleText(asked.body)).toContain("npm run cli -- outbox latest");
    const filed = await readNewestOutboxMail(database.db, (mail) => mail.to.includes(owner.email));

    const latest = await outbox("latest");

    expect(latest.code, latest.stderr).toBe(0);
    const lines = latest.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      expect.stringMatching(/^From: Vitrine <vitrine@127\.0\.0\.1>$/),
      `To: ${owner.email}`,
      "Subject: Reset your password",
      expect.stringMatching(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/),
      `ID: ${filed.id}`,
    ]);
    // The text part decoded: no quoted-printable soft breaks or =3D, the link whole on a line of its own.
    expect(latest.stdout).not.toMatch(/=3D|=\n/);
    const linkLine = lines.find((line) => line.includes("/auth/reset?token="));
    expect(linkLine).toMatch(new RegExp(`^${server.origin}/auth/reset\\?token=[\\w-]+$`));
    const link = new URL(linkLine ?? "");
    const token = link.searchParams.get("token") ?? "";
    noteSecret(token);

    // Followed, it opens the reset form for that account, and the new password is set.
    const form = await request(link.href);
    expect(form.status).toBe(200);
    const formText = visibleText(form.body);
    expect(formText).toContain(recoveryEn["recovery.reset.intro"].replace("{email}", owner.email));
    expect(formText).not.toContain(recoveryEn["recovery.reset.invalid"]);
    const done = await postForm(server, `${link.pathname}${link.search}`, { token, password: strongPassword() });
    expect(done.status).toBe(200);
    expect(visibleText(done.body)).toContain("Password changed");
  });

  it("lists the mails newest first and shows one by the ID the list and Admin → Outbox use", async () => {
    const first = await createUser(database.db);
    const second = await createUser(database.db);
    for (const [user, client] of [
      [first, "127.0.9.2"],
      [second, "127.0.9.3"],
    ] as const) {
      await postForm(server, "/auth/forgot", { email: user.email }, { localAddress: client });
      await readNewestOutboxMail(database.db, (mail) => mail.to.includes(user.email));
    }
    const names = await outboxIds(database.db);

    const list = await outbox("list");

    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^ID\s+FILED\s+TO\s+SUBJECT$/);
    expect(rows.slice(1).map((row) => row.split(/\s+/)[0])).toEqual(names);
    expect(rows[1]).toContain(second.email);
    expect(rows[2]).toContain(first.email);

    const id = names[1] ?? "";
    const shown = await outbox("show", id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`To: ${first.email}\n`);
    expect(shown.stdout).toContain(`ID: ${id}\n`);
    expect(shown.stdout).toMatch(/\/auth\/reset\?token=[\w-]+\n/);
    // The same mail on the Outbox screen's address.
    expect(id).toMatch(/^\d{8}-\d{6}-\d{3}-password-reset-[0-9a-f]{8}\.eml$/);
  });

  it("says so, with a non-zero exit, for an unknown ID, a path, or a missing ID", async () => {
    for (const id of ["20260101-000000-000-password-reset-00000000.eml", "../auth-secret"]) {
      const result = await outbox("show", id);
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`No mail "${id}" in the outbox`);
      expect(result.stderr).toContain("npm run cli -- outbox list");
    }
    const missing = await outbox("show");
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/outbox show takes exactly one ID/);
    const unknown = await outbox("first");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/Unknown command: outbox first/);
  });
});

describe("reading the outbox of a site that never started", () => {
  const outbox = (dataDir: string, ...args: string[]) => outboxOf({ dataDir }, ...args);

  it("says that the outbox is empty, with a non-zero exit for the newest mail, writing nothing", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-empty-outbox-"));
    try {
      const latest = await outbox(empty, "latest");
      expect(latest.code).not.toBe(0);
      expect(latest.stdout).toBe("");
      expect(latest.stderr).toContain("The outbox is empty");
      const list = await outbox(empty, "list");
      expect(list.code).toBe(0);
      expect(list.stdout).toBe("");
      expect(list.stderr).toContain("The outbox is empty");
      // Reading needs no database: none is made.
      expect(fs.readdirSync(empty)).toEqual([]);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
