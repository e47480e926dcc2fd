import { RouterContextProvider } from "react-router";
import type { SessionUser } from "#app/lib/request-context.ts";
import { sessionUserContext } from "#app/lib/request-context.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";
import { runtimeContext } from "#app/runtime/runtime-context.ts";

/**
 * A context with only the services a route uses (for a route test that needs no database; see route-context.ts for
 * the tier on a full runtime over a test database): the runtime built for the test (only the
 * services the route uses: a route reaching for one not given fails loudly) and who is signed in.
 */
export function servicesContext(runtime: Partial<Runtime>, user: SessionUser | null): RouterContextProvider {
  const context = new RouterContextProvider();
  const services = new Proxy(runtime, {
    get(target, key) {
      if (typeof key === "string" && !(key in target)) throw new Error(`The test runtime has no ${key}`);
      return Reflect.get(target, key);
    },
  }) as Runtime;
  context.set(runtimeContext, services);
  context.set(sessionUserContext, user);
  return context;
}

/** A session user for `routeContext` from a created user (or any id and address). */
export function sessionOf(user: {
  id: string;
  email: string;
  isAdmin: boolean;
  groupIds?: readonly string[];
}): SessionUser {
  const { id, email, isAdmin, groupIds = [] } = user;
  return { id, email, isAdmin, sessionId: `session-of-${id}`, groupIds };
}

/** A form post to `path` as a loader or action receives it, with the URL React Router passes beside it. */
export function formPost(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const url = new URL(path, "http://localhost");
  const request = new Request(url, { method: "POST", body: new URLSearchParams(fields), headers });
  return { request, url };
}

/** What an action answered, `data()` or plain: its body and status (200 when it set none). */
export function answerOf(result: unknown): { status: number; body: unknown } {
  if (typeof result === "object" && result !== null && "type" in result && result.type === "DataWithResponseInit") {
    const wrapped = result as unknown as { data: unknown; init: ResponseInit | null };
    return { status: wrapped.init?.status ?? 200, body: wrapped.data };
  }
  return { status: 200, body: result };
}
