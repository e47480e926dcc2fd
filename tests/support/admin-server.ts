import { expect } from "vitest";
import type { DatabaseKind } from "#app/db/database.server.ts";
import { type CreatedUser, createUser } from "./factories.ts";
import { type HttpResponse, type ServerProcess, startServer, TEST_AUTH_SECRET } from "./server-process.ts";
import { createSessionCookie } from "./sessions.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

/** The text a visitor reads: tags stripped, the entities of the texts under test decoded. */
export function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ");
}

/** A visitor is sent to sign in: a 302 for a document, a single-fetch redirect (202) for a `.data` request. */
export function expectSentToSignIn(response: HttpResponse) {
  if (response.status === 302) {
    expect(response.headers.location).toMatch(/^\/auth\?redirectTo=%2Fadmin/);
  } else {
    expect(response.status).toBe(202);
    expect(response.body).toMatch(/"redirect","\/auth\?redirectTo=%2Fadmin/);
  }
}

/**
 * The real server on an existing test database (its data folder and, on PostgreSQL, its URL), with the server's
 * own auth secret (not TEST_AUTH_SECRET); `cleanup` gets the server's kill, for the test file's afterEach.
 */
export async function startServerOn(
  database: TestDatabase,
  cleanup: (() => Promise<unknown>)[],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const server = await startServer({
    dataDir: database.location.dataDir,
    databaseUrl: database.location.databaseUrl,
    env,
  });
  cleanup.push(() => server.stop("SIGKILL"));
  return server;
}

/** A fresh test database with the real server running on it. */
export async function startServerOnFreshDatabase(
  kind: DatabaseKind,
  env: Record<string, string> = {},
): Promise<{ database: TestDatabase; server: ServerProcess }> {
  const database = await createTestDatabase(kind);
  try {
    const server = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
      authSecret: TEST_AUTH_SECRET,
      env,
    });
    return { database, server };
  } catch (error) {
    await database.destroy();
    throw error;
  }
}

/** Stops the server (which must exit cleanly) and removes its database; safe when the start failed. */
export async function stopServerAndDatabase(server: ServerProcess | undefined, database: TestDatabase | undefined) {
  const code = await server?.stop();
  await database?.destroy();
  expect(code).toBe(0);
}

/** The `Cookie` header value of a fresh session for the user. */
export async function cookieFor(database: TestDatabase, user: Pick<CreatedUser, "id">): Promise<string> {
  const cookie = await createSessionCookie(database.db, user.id, TEST_AUTH_SECRET);
  return `${cookie.name}=${cookie.value}`;
}

/** An admin and a user without the admin role, each signed in. */
export async function signedInAdminAndMember(database: TestDatabase) {
  const admin = await createUser(database.db, { admin: true });
  const member = await createUser(database.db);
  return { admin, adminCookie: await cookieFor(database, admin), memberCookie: await cookieFor(database, member) };
}
