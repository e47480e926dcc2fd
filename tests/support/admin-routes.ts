import routes from "#app/routes.ts";

type RouteEntry = { path?: string; file?: string; index?: boolean; children?: RouteEntry[] };

/** A value for each dynamic segment, so that every admin route is reached (`:kind` must be a known kind). */
const SAMPLE_PARAMS: Record<string, string> = { kind: "logo", id: "1" };

/**
 * Every page and endpoint of the admin area with its module, read from the route table itself: a screen added there
 * is checked by every test that walks this list, without anyone remembering to add it. `page` is false for resource
 * routes (uploads, the backup download), which have no `.data` request.
 */
export function adminRoutes(): { path: string; file: string; page: boolean; params: Record<string, string> }[] {
  const admin = (routes as RouteEntry[]).find((entry) => entry.path === "admin");
  if (!admin?.children) throw new Error("No admin route in app/routes.ts");
  return admin.children.map((child) => {
    const file = child.file ?? "";
    const page = file.endsWith(".tsx");
    if (child.index) return { path: "/admin", file, page, params: {} };
    const params: Record<string, string> = {};
    const path = (child.path ?? "").replace(/:(\w+)/g, (_, name: string) => {
      const value = SAMPLE_PARAMS[name];
      if (!value) throw new Error(`No sample value for :${name} in tests/support/admin-routes.ts`);
      params[name] = value;
      return value;
    });
    return { path: `/admin/${path}`, file, page, params };
  });
}

export function adminPaths(): string[] {
  return adminRoutes().map((route) => route.path);
}

/**
 * React Router's data request for a page (what a client-side navigation fetches), by the router's own rule
 * (`singleFetchUrl` in react-router's single-fetch, 8.4): a path ending in `/` takes `_.data` (`/` → `/_.data`),
 * any other `.data` (`/a?x` → `/a.data?x`). `/_root.data` was an older version's name of `/`'s data: today it is
 * a page that does not exist, and a leak test that looked there saw a 404 whatever the gallery showed.
 */
export function dataPathOf(path: string): string {
  const [pathname = "", query] = path.split("?");
  return `${pathname}${pathname.endsWith("/") ? "_" : ""}.data${query ? `?${query}` : ""}`;
}

/**
 * Every page of sign-in, recovery and the account (top-level `auth…` and `account…` routes and the account
 * layout's children), from the route table; a token-carrying page gets a made-up token.
 */
export function accountAndAuthPaths(): string[] {
  const paths: string[] = [];
  for (const entry of routes as RouteEntry[]) {
    const path = entry.path ?? "";
    if (!/^(auth|account)\b/.test(path) || path === "account-deleted") continue;
    if (entry.children) {
      for (const child of entry.children) paths.push(child.index ? `/${path}` : `/${path}/${child.path}`);
    } else {
      paths.push(`/${path}`);
    }
  }
  return paths.map((path) => (/\/(reset|confirm-email)$/.test(path) ? `${path}?token=${"t".repeat(43)}` : path));
}
