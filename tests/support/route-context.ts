import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseKind } from "#app/db/database.server.ts";
import { parseEnv } from "#app/lib/env.server.ts";
import { clientAddressContext, type SessionUser, sessionUserContext } from "#app/lib/request-context.ts";
import { createRuntime } from "#app/runtime/runtime.server.ts";
import { type Runtime, runtimeContext } from "#app/runtime/runtime-context.ts";
import type { CreatedUser } from "./factories.ts";
import { TEST_AUTH_SECRET } from "./server-process.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

/**
 * The in-process tier: a route module's `loader` and `action` called directly, with the context the server would
 * build (server/app.ts) on a runtime over a test database. No server, no HTTP, no background task: what a route
 * decides (who it refuses, what it returns) is tested in milliseconds.
 */
export type RouteRuntime = { runtime: Runtime; database: TestDatabase; stop: () => Promise<void> };

/** The runtime on a fresh test database, its background tasks never started. */
export async function createRouteRuntime(kind: DatabaseKind): Promise<RouteRuntime> {
  const database = await createTestDatabase(kind);
  const env = parseEnv({
    NODE_ENV: "test",
    DATA_DIR: database.location.dataDir,
    AUTH_SECRET: TEST_AUTH_SECRET,
    BASE_URL: "http://localhost:3000",
    LOG_LEVEL: "silent",
  });
  const runtime = createRuntime(env, database);
  return {
    runtime,
    database,
    stop: async () => {
      await runtime.mail.close();
      await database.destroy();
    },
  };
}

/** A route runtime shared by the tests of the surrounding `describe` (created before them, dropped after). */
export function useRouteRuntime(kind: DatabaseKind): () => RouteRuntime {
  let current: RouteRuntime | undefined;
  beforeAll(async () => {
    current = await createRouteRuntime(kind);
  });
  afterAll(async () => {
    await current?.stop();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error("The route runtime only exists inside a test");
    return current;
  };
}

/** Who asks: nobody signed in, or a user (as the root middleware would have resolved their session). */
export type Visitor = null | (Pick<CreatedUser, "id" | "email" | "isAdmin"> & { groupIds?: readonly string[] });

export function routeContext(runtime: Runtime, visitor: Visitor, clientAddress = "203.0.113.7"): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(runtimeContext, runtime);
  const user: SessionUser | null = visitor ? { groupIds: [], ...visitor, sessionId: "in-process-test-session" } : null;
  context.set(sessionUserContext, user);
  context.set(clientAddressContext, clientAddress);
  return context;
}

/** The arguments React Router passes a loader or action, for `path` (with its query) on this site. */
export function routeArgs<Params extends Record<string, string> = Record<string, never>>(
  runtime: Runtime,
  visitor: Visitor,
  path: string,
  init: RequestInit & { params?: Params; pattern?: string } = {},
) {
  const url = new URL(path, runtime.env.baseUrl);
  const { params = {} as Params, pattern = url.pathname, ...requestInit } = init;
  return {
    request: new Request(url, requestInit),
    url,
    params,
    pattern,
    context: routeContext(runtime, visitor),
  };
}

/** What a loader or action threw or returned, whichever it did: a refusal is thrown as a Response or data(). */
export async function outcomeOf(call: () => unknown): Promise<unknown> {
  try {
    return await call();
  } catch (thrown) {
    return thrown;
  }
}

/** The status a loader's or action's outcome stands for: a Response's, a `data()` result's, or 200 for plain data. */
export function statusOf(outcome: unknown): number {
  if (outcome instanceof Response) return outcome.status;
  if (outcome && typeof outcome === "object" && "type" in outcome && outcome.type === "DataWithResponseInit") {
    return (outcome as { init?: { status?: number } | null }).init?.status ?? 200;
  }
  return 200;
}
