import path from "node:path";
import { describe, expect, it } from "vitest";
import { adminRoutes } from "../support/admin-routes.ts";
import { createUser } from "../support/factories.ts";
import { repoRoot } from "../support/import-graph.ts";
import { outcomeOf, routeArgs, statusOf, useRouteRuntime, type Visitor } from "../support/route-context.ts";

type DataFunction = (args: ReturnType<typeof routeArgs>) => unknown;
type RouteModule = { loader?: DataFunction; action?: DataFunction };

// The admin layout's middleware refuses visitors and non-admins' writes first, but every admin loader and action
// checks again itself (a route moved out of the layout, or a middleware dropped, must not open it). Called here
// directly, without the middleware, each one shows that it refuses on its own.
describe("every admin route's loader and action, called in-process", () => {
  const current = useRouteRuntime("sqlite");
  const routes = adminRoutes();

  it("are found in the route table (admin layout and its children)", () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  const calls = async (file: string) => {
    const module = (await import(path.join(repoRoot, "app", file))) as RouteModule;
    const found: [string, DataFunction, RequestInit][] = [];
    if (module.loader) found.push(["loader", module.loader, { method: "GET" }]);
    if (module.action) found.push(["action", module.action, { method: "POST", body: new FormData() }]);
    return found;
  };

  const layout = { path: "/admin", file: "routes/admin.tsx", page: true, params: {} };
  for (const route of [layout, ...routes]) {
    it(`${route.path} (${route.file}) sends a visitor to sign in and refuses a signed-in non-admin`, async () => {
      const { runtime, database } = current();
      const member = await createUser(database.db);
      const nonAdmin: Visitor = { id: member.id, email: member.email, isAdmin: false };
      const found = await calls(route.file);
      expect(found.length, `${route.file} exports neither a loader nor an action`).toBeGreaterThan(0);
      for (const [name, call, init] of found) {
        const visitorOutcome = await outcomeOf(() =>
          call(routeArgs(runtime, null, route.path, { ...init, params: route.params })),
        );
        expect(visitorOutcome, `${name} of ${route.file} for a visitor`).toBeInstanceOf(Response);
        const response = visitorOutcome as Response;
        expect(response.status, `${name} of ${route.file} for a visitor`).toBe(302);
        expect(response.headers.get("Location"), `${name} of ${route.file}`).toBe(
          `/auth?redirectTo=${encodeURIComponent(route.path)}`,
        );
        const memberOutcome = await outcomeOf(() =>
          call(routeArgs(runtime, nonAdmin, route.path, { ...init, params: route.params })),
        );
        expect(statusOf(memberOutcome), `${name} of ${route.file} for a non-admin`).toBe(403);
      }
    });
  }
});
