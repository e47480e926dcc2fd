import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountAndAuthPaths, adminPaths, dataPathOf as dataPath } from "#tests/support/admin-routes.ts";
import { cookieFor, startServerOnFreshDatabase, stopServerAndDatabase } from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { request, type ServerProcess, startServer } from "#tests/support/server-process.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-database.ts";

describe("headers over HTTP", () => {
  let database: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  let adminCookie = "";
  let userCookie = "";
  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase("sqlite"));
    adminCookie = await cookieFor(database, await createUser(database.db, { admin: true }));
    userCookie = await cookieFor(database, await createUser(database.db));
  });
  afterAll(() => stopServerAndDatabase(server, database));

  it("stores no admin, account or sign-in page or data request anywhere, for an admin, a user or a visitor", async () => {
    const paths = [...adminPaths(), ...accountAndAuthPaths()];
    expect(paths).toContain("/admin/users");
    expect(paths).toContain("/account/sessions");
    expect(paths).toContain("/auth/forgot");
    expect(paths.length).toBeGreaterThan(20);
    for (const pathname of paths) {
      for (const url of [pathname, dataPath(pathname)]) {
        for (const cookie of [adminCookie, userCookie, undefined]) {
          const response = await request(server?.url(url) ?? "", { headers: cookie ? { Cookie: cookie } : {} });
          const who = cookie === adminCookie ? "admin" : cookie ? "user" : "visitor";
          expect(response.status, `${url} (${who})`).toBeLessThan(500);
          expect(response.headers["cache-control"], `${url} (${who}): ${response.status}`).toMatch(/\bno-store\b/);
        }
      }
    }
  });

  it("turns off the browser features the site does not use, on pages and files alike, and no HSTS over http", async () => {
    const players = '(self "https://www.youtube-nocookie.com" "https://player.vimeo.com")';
    for (const url of ["/", "/", "/auth", "/favicon.svg", "/api/settings"]) {
      const response = await request(server?.url(url) ?? "");
      expect(response.status, url).toBe(200);
      const policy = new Map(
        String(response.headers["permissions-policy"] ?? "")
          .split(", ")
          .map((entry) => entry.split("=") as [string, string]),
      );
      for (const feature of ["camera", "microphone", "geolocation", "payment", "usb", "browsing-topics"]) {
        expect(policy.get(feature), `${url}: ${feature}`).toBe("()");
      }
      // The video players (YouTube, Vimeo) may go full screen and play when the visitor starts them.
      for (const feature of ["fullscreen", "autoplay", "picture-in-picture", "encrypted-media"]) {
        expect(policy.get(feature), `${url}: ${feature}`).toBe(players);
      }
      expect(response.headers["strict-transport-security"], url).toBeUndefined();
    }
  });
});

describe("a site whose address is https", () => {
  let database: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer({ dataDir: database.location.dataDir, env: { BASE_URL: "https://vitrine.example" } });
  });
  afterAll(() => stopServerAndDatabase(server, database));

  it("tells browsers to use HTTPS only, for a year, on pages (kept or not) and files", async () => {
    // The second "/" is the kept page, sent before Express runs.
    for (const url of ["/", "/", "/auth", "/favicon.svg", "/api/settings"]) {
      const response = await request(server?.url(url) ?? "");
      expect(response.status, url).toBe(200);
      expect(response.headers["strict-transport-security"], url).toBe("max-age=31536000");
    }
  });
});
