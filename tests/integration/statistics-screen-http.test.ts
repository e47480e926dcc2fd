import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOf } from "#app/domains/statistics/statistics-range.ts";
import {
  expectSentToSignIn,
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
  visibleText,
} from "#tests/support/admin-server.ts";
import { request, type ServerProcess } from "#tests/support/server-process.ts";
import { type DailyRow, seedDaily, seedStatisticsContent } from "#tests/support/statistics-seed.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * Issue 46: Admin → Statistics over HTTP, on both databases, against rows as the counting leaves them: the numbers
 * and content titles of a chosen range, the server-drawn chart and its table, a bad range answered with the default
 * and a reason (never an error), the CSV, the empty state, the dashboard's week and the note while counting is off.
 */

const FROM = "2026-03-01";
const TO = "2026-03-07";
const CUSTOM = `/admin/statistics?range=custom&from=${FROM}&to=${TO}`;

describe.each(databaseKinds)("the statistics screen over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let memberCookie: string;
  let titles: Awaited<ReturnType<typeof seedStatisticsContent>>["titles"];
  let postKey: string;

  const get = (path: string, cookie?: string) =>
    request(server.url(path), { headers: cookie ? { Cookie: cookie } : {} });
  const setting = async (value: "true" | "false") =>
    database.db.updateTable("site_settings").set({ value }).where("key", "=", "statistics_enabled").execute();

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    ({ adminCookie, memberCookie } = await signedInAdminAndMember(database));
  });

  afterAll(() => stopServerAndDatabase(server, database));

  it("says that nothing is counted yet, and is for admins only", async () => {
    const page = await get("/admin/statistics", adminCookie);
    expect(page.status).toBe(200);
    expect(visibleText(page.body)).toContain("Nothing has been counted yet.");
    expect(page.body).not.toContain('data-testid="visits-chart"');
    expectSentToSignIn(await get("/admin/statistics"));
    expect((await get("/admin/statistics", memberCookie)).status).toBe(403);
    expectSentToSignIn(await get("/admin/statistics.csv"));
    expect((await get("/admin/statistics.csv", memberCookie)).status).toBe(403);
    // The dashboard's line says so too, with nothing to compare.
    expect(visibleText((await get("/admin", adminCookie)).body)).toContain("0 visitors this week");
  });

  it("shows a range's numbers, titles, chart and table", async () => {
    const content = await seedStatisticsContent(database.db, "http");
    titles = content.titles;
    postKey = `/blog/${content.postSlug}`;
    const rows: DailyRow[] = [
      { day: "2026-03-01", kind: "site", key: "", views: 1234, visitors: 456, member_views: 7 },
      { day: "2026-03-04", kind: "site", key: "", views: 100, visitors: 44 },
      { day: "2026-02-27", kind: "site", key: "", views: 50, visitors: 250 },
      { day: "2026-03-01", kind: "page", key: postKey, views: 900, visitors: 300 },
      { day: "2026-03-01", kind: "page", key: `/albums/${content.albumSlug}`, views: 200, visitors: 100 },
      { day: "2026-03-01", kind: "page", key: "/blog/gone-post", views: 30, visitors: 10 },
      { day: "2026-03-01", kind: "picture", key: content.pictureId, views: 77, visitors: 70 },
      { day: "2026-03-01", kind: "referrer", key: "news.example.org", views: 40, visitors: 30 },
      { day: "2026-03-01", kind: "notfound", key: "/old-<b>page", views: 5, visitors: 5 },
      { day: "2026-03-01", kind: "notfound-referrer", key: "/old-<b>page\nforum.example.net", views: 5, visitors: 5 },
      { day: "2026-03-01", kind: "search-empty", key: "unicorns", views: 3, visitors: 3 },
      { day: "2026-03-01", kind: "device", key: "phone", views: 300, visitors: 100 },
      { day: "2026-03-01", kind: "device", key: "desktop", views: 900, visitors: 300 },
    ];
    await seedDaily(database.db, rows);

    const page = await get(CUSTOM, adminCookie);
    expect(page.status).toBe(200);
    const text = visibleText(page.body);
    // Totals (456 + 44 visitors against 250 the week before: +100 %), and the trend of a new page.
    expect(text).toContain("500");
    expect(text).toContain("1,334");
    expect(text).toContain("+100 % against the 7 days before");
    expect(text).toContain(titles.post);
    expect(text).toContain(titles.album);
    expect(text).toContain(titles.picture);
    expect(text).toContain("/blog/gone-post");
    expect(text).toContain("news.example.org");
    expect(text).toContain("forum.example.net");
    expect(text).toContain("unicorns");
    expect(text).toContain("Phone");
    expect(text).toContain("75%");
    // A visitor's address is text, escaped.
    expect(page.body).toContain("/old-&lt;b&gt;page");
    expect(page.body).not.toContain("/old-<b>page");

    const svg = page.body.match(/<svg[^>]*data-testid="visits-chart"[^>]*>/)?.[0] ?? "";
    expect(svg).toContain('role="img"');
    expect(svg).toMatch(/aria-label="[^"]*500 visitors and 1,334 views in all[^"]*"/);
    // A bar per day for the views and one for the visitors, each day of the range.
    const chart = page.body.slice(page.body.indexOf(svg), page.body.indexOf("</svg>", page.body.indexOf(svg)));
    expect(chart.match(/<rect/g)).toHaveLength(14);
    expect(page.body).toContain("<caption");
    expect(page.body).toMatch(/Visitors and views per day, 1 Mar 2026 to 7 Mar 2026/);
    const table = page.body.slice(page.body.indexOf('data-testid="visits-table"'));
    expect(table.match(/<th scope="row"/g)?.length).toBeGreaterThanOrEqual(7);
    expect(visibleText(table)).toMatch(/1 Mar 2026 456 1,234 2 Mar 2026 0 0/);

    const german = visibleText((await get(`${CUSTOM}&lang=de`, adminCookie)).body);
    expect(german).toContain(titles.postDe);
    expect(german).toContain("Besucher und Aufrufe pro Tag");
  });

  it("answers a bad range with the last 30 days and the reason, never an error", async () => {
    const cases: [string, string][] = [
      ["range=custom&from=2026-02-30&to=2026-03-01", "Enter both dates as a day of the calendar"],
      ["range=custom&from=2026-03-07&to=2026-03-01", "The first date comes after the second"],
      ["range=custom&from=2020-01-01&to=2026-03-01", "A period can be three years at the most"],
      ["range=forever", "That period is not one of those offered"],
      ["from=%00%3Cscript%3E&to=x", "Enter both dates as a day of the calendar"],
    ];
    const today = dayOf(new Date());
    const since = new Date(`${addDays(today, -29)}T00:00:00Z`).toLocaleDateString("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    });
    for (const [query, message] of cases) {
      const page = await get(`/admin/statistics?${query}`, adminCookie);
      expect(page.status, query).toBe(200);
      const text = visibleText(page.body);
      expect(text, query).toContain(message);
      expect(text, query).toContain(`${since} to`);
    }
    const data = await get(`/admin/statistics.data?range=forever`, adminCookie);
    expect(data.status).toBe(200);
  });

  it("exports the range's rows as CSV", async () => {
    const csv = await get(`/admin/statistics.csv?range=custom&from=${FROM}&to=${FROM}`, adminCookie);
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(`attachment; filename="statistics-${FROM}-${FROM}.csv"`);
    expect(csv.headers["cache-control"]).toBe("no-store");
    const lines = csv.body.split("\r\n");
    expect(lines[0]).toBe("day,kind,key,views,visitors,member_views");
    expect(lines).toContain("2026-03-01,site,,1234,456,7");
    expect(lines).toContain(`2026-03-01,page,${postKey},900,300,0`);
    expect(csv.body).toContain('2026-03-01,notfound-referrer,"/old-<b>page\nforum.example.net",5,5,0');
    // The header, the day's 11 rows and the empty string after the last line break.
    expect(lines).toHaveLength(13);
    expect(csv.body).not.toContain("2026-03-04");
    // The screen links to the file of the range it shows.
    expect((await get(CUSTOM, adminCookie)).body).toContain(
      `href="/admin/statistics.csv?from=${FROM}&amp;to=${TO}&amp;range=custom"`,
    );
  });

  it("puts the week's visitors on the dashboard, and leaves it out, with a note on the screen, while counting is off", async () => {
    const today = dayOf(new Date());
    await seedDaily(database.db, [
      { day: today, kind: "site", key: "", views: 400, visitors: 312 },
      { day: addDays(today, -8), kind: "site", key: "", views: 300, visitors: 264 },
    ]);
    const dashboard = await get("/admin", adminCookie);
    expect(visibleText(dashboard.body)).toContain("312 visitors this week, +18 %");
    expect(dashboard.body).toMatch(/<a[^>]*href="\/admin\/statistics\?range=7d"[^>]*>312 visitors this week/);
    expect(visibleText((await get("/admin?lang=de", adminCookie)).body)).toContain("312 Besucher diese Woche, +18 %");
    expect((await get("/admin/statistics", adminCookie)).body).not.toContain('data-testid="statistics-off"');

    await setting("false");
    try {
      let page = "";
      for (let attempt = 0; attempt < 50 && !page.includes("Counting is turned off"); attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
        page = visibleText((await get(CUSTOM, adminCookie)).body);
      }
      expect(page).toContain("Counting is turned off");
      expect(page).toContain(titles.post);
      const screen = (await get(CUSTOM, adminCookie)).body;
      expect(screen).toContain('href="/admin/settings?section=statistics"');
      expect(visibleText((await get("/admin", adminCookie)).body)).not.toContain("visitors this week");
    } finally {
      await setting("true");
    }
  });
});
