import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { findInviteCode } from "#app/domains/invites/invites.server.ts";
import { searchSite } from "#app/domains/search/search.server.ts";
import { isAdmin } from "#app/domains/users/users.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { cleanEnv, type ProcessResult, run } from "#tests/support/server-process.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

const CODE = /^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/;

// Every call starts npm and Node on the sources, a few seconds each on a busy machine; one test makes several calls.
vi.setConfig({ testTimeout: 90_000 });

describe.each(databaseKinds)("the command line (%s)", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.destroy();
  });

  /** `npm run cli -- …` from the checkout, with the same environment the server would get. */
  function cli(...args: string[]): Promise<ProcessResult> {
    return run(
      "npm",
      ["run", "cli", "--", ...args],
      cleanEnv({ DATA_DIR: database.location.dataDir, DATABASE_URL: database.location.databaseUrl }),
    );
  }

  it("prints exactly N new unused codes and nothing else on stdout", async () => {
    const result = await cli("invites", "create", "--count", "3");

    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines.at(-1)).toBe("");
    const codes = lines.slice(0, -1);
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(CODE);
    expect(new Set(codes).size).toBe(3);
    for (const code of codes) expect((await findInviteCode(database.db, code))?.isUsed).toBe(false);
  });

  it("grants and revokes the admin role, and refuses to revoke the last admin", async () => {
    const first = await createUser(database.db);
    const second = await createUser(database.db);

    const granted = await cli("admins", "grant", first.email.toUpperCase());
    expect(granted.code).toBe(0);
    expect(granted.stdout).toBe("");
    expect(await isAdmin(database.db, first.id)).toBe(true);

    const last = await cli("admins", "revoke", first.email);
    expect(last.code).not.toBe(0);
    expect(last.stderr).toMatch(/last admin/i);
    expect(last.stdout).toBe("");
    expect(await isAdmin(database.db, first.id)).toBe(true);

    expect((await cli("admins", "grant", second.email)).code).toBe(0);
    const revoked = await cli("admins", "revoke", first.email);
    expect(revoked.code).toBe(0);
    expect(await isAdmin(database.db, first.id)).toBe(false);
    expect(await isAdmin(database.db, second.id)).toBe(true);
  });

  it("rebuilds the search index with search reindex", async () => {
    await faqService.create(database.db, testAdmin, { question: "Puffin colony?", answer: "North.", active: true });
    await database.db.deleteFrom("search_documents").execute();
    const search = () => searchSite(database.db, { lang: "en", query: "puffin", page: 1 });
    expect((await search()).total).toBe(0);

    const result = await cli("search", "reindex");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/Search index rebuilt in \d+ ms: 0 posts, 0 pictures, 1 faq, 0 videos, 0 links\./);
    expect((await search()).hits.map((hit) => hit.title)).toEqual(["Puffin colony?"]);
  });
});

describe("the command line's errors", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database.destroy();
  });

  function cli(...args: string[]): Promise<ProcessResult> {
    return run("npm", ["run", "cli", "--", ...args], cleanEnv({ DATA_DIR: database.location.dataDir }));
  }

  it("prints one code without --count", async () => {
    const result = await cli("invites", "create");

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}\n$/);
  });

  it("refuses a bad count on stderr with a non-zero exit, creating nothing", async () => {
    const before = await database.db.selectFrom("invite_codes").select("code").execute();

    const result = await cli("invites", "create", "--count", "zero");

    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("--count");
    expect(await database.db.selectFrom("invite_codes").select("code").execute()).toHaveLength(before.length);
  });

  it("names an unknown address on stderr with a non-zero exit", async () => {
    const result = await cli("admins", "grant", "nobody@example.test");

    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("nobody@example.test");
    expect(result.stdout).toBe("");
  });

  it("explains an unknown command on stderr with a non-zero exit", async () => {
    const result = await cli("users", "delete");

    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Unknown command/);
    expect(result.stderr).toMatch(/Usage/);
    expect(result.stdout).toBe("");
  });

  it("stops with one line naming the variable when the environment is bad", async () => {
    const result = await run("npm", ["run", "cli", "--", "invites", "create"], cleanEnv({ DATABASE_URL: "mysql://x" }));

    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("DATABASE_URL");
  });
});
