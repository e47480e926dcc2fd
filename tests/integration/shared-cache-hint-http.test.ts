import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cookieFor,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { createUser } from "#tests/support/factories.ts";
import { postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import type { TestDatabase } from "#tests/support/test-database.ts";

/** The texts of the page's shared-cache hints, tags stripped. */
function hints(html: string): string[] {
  return [...html.matchAll(/data-testid="shared-cache-hint"[^>]*>([\s\S]*?)<\/p>/g)].map((match) =>
    visibleText(match[1] ?? "").trim(),
  );
}

/**
 * Issue 42, item 5: a CDN may keep a visitor page for s-maxage, then serve it stale for stale-while-revalidate more,
 * so a just-restricted item's tile can stay visible there that long. The post editor's audience control says so,
 * with the seconds the site's own header sends, in both languages (every control, rendered:
 * app/components/admin/shared-cache-hint.test.ts). Reads no data of its own: SQLite only.
 */
describe("the audience control's shared-cache hint over HTTP", () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let cookie: string;

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase("sqlite"));
    cookie = await cookieFor(database, await createUser(database.db, { admin: true }));
  });
  afterAll(() => stopServerAndDatabase(server, database));

  const page = async (path: string) => {
    const response = await request(server.url(path), { headers: { Cookie: cookie } });
    expect(response.status, path).toBe(200);
    return response.body;
  };
  /** The window a visitor page's Cache-Control allows a shared cache: s-maxage + stale-while-revalidate. */
  const windowSeconds = async () => {
    const header = String((await request(server.url("/"))).headers["cache-control"]);
    const seconds = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(header)?.[1]);
    expect(header).toMatch(/^public, /);
    return seconds("s-maxage") + seconds("stale-while-revalidate");
  };

  it("is said under 'Who may see it' of a restricted post, not of a public one, in English and German", async () => {
    const seconds = await windowSeconds();
    expect(seconds).toBeGreaterThan(0);
    const save = async (fields: Record<string, string>) => {
      const answer = await postForm(server, "/admin/posts/new", { intent: "publish", ...fields }, { cookie });
      expect(answer.status, answer.body.slice(0, 300)).toBe(303);
      return (answer.headers.location ?? "").split("/").pop()?.split("?")[0] ?? "";
    };
    const restricted = await save({ title: "For members", visibility: "members" });
    const open = await save({ title: "For everyone", visibility: "everyone" });
    expect(hints(await page(`/admin/posts/${restricted}`))).toEqual([
      `A CDN or other shared cache in front of the site may go on showing pages visitors already loaded, with this item's tile or link, for up to ${seconds} seconds after you save. If that matters, purge the CDN's cache after saving, or give pages a shorter cache time there (an edge cache TTL below the site's s-maxage).`,
    ]);
    const german = hints(await page(`/admin/posts/${restricted}?lang=de`));
    expect(german).toHaveLength(1);
    expect(german[0]).toContain(`noch bis zu ${seconds} Sekunden lang`);
    expect(german[0]).toContain("leeren Sie nach dem Speichern den Cache des CDN");
    expect(hints(await page(`/admin/posts/${open}`))).toEqual([]);
  });
});
