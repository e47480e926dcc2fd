import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { type DailyRow, seedDaily, seedStatisticsContent } from "#tests/support/statistics-seed.ts";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import { statisticsCsv } from "./statistics-export.server.ts";
import { readStatistics, readWeekVisitors } from "./statistics-reads.server.ts";

// The statistics screen's reads (issue 46) on each database: the daily series with its empty days, totals and
// trends against the period before, each list's first keys summed over the range, posts, albums and pictures by
// their titles (a deleted one by its bare address), the dashboard's week, and the CSV's lines.

const RANGE = { from: "2026-03-01", to: "2026-03-07" };

describe.each(databaseKinds)("the statistics reads (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");

  async function seedWeek() {
    const content = await seedStatisticsContent(database.db, "t1");
    const post = `/blog/${content.postSlug}`;
    const postDe = `/blog/${content.postSlugDe}`;
    const album = `/albums/${content.albumSlug}`;
    const rows: DailyRow[] = [
      { day: "2026-03-01", kind: "site", key: "", views: 10, visitors: 4, member_views: 2 },
      { day: "2026-03-03", kind: "site", key: "", views: 20, visitors: 6 },
      { day: "2026-02-25", kind: "site", key: "", views: 5, visitors: 5 },
      { day: "2026-03-08", kind: "site", key: "", views: 100, visitors: 50 },
      { day: "2026-03-01", kind: "page", key: "/", views: 8, visitors: 3 },
      { day: "2026-03-03", kind: "page", key: "/", views: 4, visitors: 2 },
      { day: "2026-02-25", kind: "page", key: "/", views: 4, visitors: 4 },
      { day: "2026-03-02", kind: "page", key: post, views: 6, visitors: 5 },
      { day: "2026-03-02", kind: "page", key: postDe, views: 2, visitors: 2 },
      { day: "2026-03-04", kind: "page", key: "/blog/deleted-post", views: 3, visitors: 1 },
      { day: "2026-03-05", kind: "page", key: album, views: 5, visitors: 2 },
      { day: "2026-03-05", kind: "page", key: "/blog", views: 1, visitors: 1 },
      { day: "2026-02-26", kind: "page", key: "/prev-only", views: 9, visitors: 9 },
      { day: "2026-03-08", kind: "page", key: "/after", views: 9, visitors: 9 },
      { day: "2026-03-01", kind: "picture", key: content.pictureId, views: 7, visitors: 3 },
      { day: "2026-03-01", kind: "picture", key: "0f0f0f0f-0000-4000-8000-000000000000", views: 1, visitors: 1 },
      { day: "2026-03-01", kind: "entry", key: post, views: 4 },
      { day: "2026-03-01", kind: "language", key: "en", views: 20, visitors: 7 },
      { day: "2026-03-01", kind: "language", key: "de", views: 10, visitors: 3 },
      { day: "2026-03-01", kind: "notfound", key: "/old", views: 3, visitors: 2 },
      { day: "2026-03-01", kind: "notfound-referrer", key: "/old\nexample.org", views: 3, visitors: 2 },
      { day: "2026-03-01", kind: "search-empty", key: '=xyz, "q"', views: 2, visitors: 2 },
      { day: "2026-03-02", kind: "search", key: "harbour", views: 1, visitors: 1 },
    ];
    await seedDaily(database.db, rows);
    return { content, post, postDe, album };
  }

  it("fills every day of the range, sums the totals and compares them with the days before", async () => {
    await seedWeek();
    const report = await readStatistics(database.db, RANGE);
    expect(report.series.map((point) => point.day)).toEqual([
      "2026-03-01",
      "2026-03-02",
      "2026-03-03",
      "2026-03-04",
      "2026-03-05",
      "2026-03-06",
      "2026-03-07",
    ]);
    expect(report.series[0]).toEqual({ day: "2026-03-01", views: 10, visitors: 4, memberViews: 2 });
    expect(report.series[1]).toEqual({ day: "2026-03-02", views: 0, visitors: 0, memberViews: 0 });
    expect(report.totals).toEqual({ views: 30, visitors: 10, memberViews: 2 });
    expect(report.previousTotals).toEqual({ views: 5, visitors: 5, memberViews: 0 });
    expect(report.trend).toEqual({ views: { percent: 500 }, visitors: { percent: 100 } });
  });

  it("lists each kind's first keys by views, with trends and the titles of posts, albums and pictures", async () => {
    const { content, post, postDe, album } = await seedWeek();
    const report = await readStatistics(database.db, RANGE);
    const pages = report.lists.page.map((entry) => [entry.key, entry.views, entry.title]);
    expect(pages).toEqual([
      ["/", 12, null],
      [post, 6, content.titles.post],
      [album, 5, content.titles.album],
      ["/blog/deleted-post", 3, null],
      [postDe, 2, content.titles.post],
      ["/blog", 1, null],
    ]);
    expect(report.lists.page[0]).toMatchObject({ visitors: 5, previousViews: 4, trend: { percent: 200 } });
    expect(report.lists.page[1]?.trend).toBe("new");
    expect(report.lists.post.map((entry) => entry.key)).toEqual([post, "/blog/deleted-post", postDe]);
    expect(report.lists.album.map((entry) => entry.title)).toEqual([content.titles.album]);
    expect(report.lists.picture.map((entry) => [entry.title, entry.views])).toEqual([
      [content.titles.picture, 7],
      [null, 1],
    ]);
    expect(report.lists.entry).toMatchObject([{ key: post, title: content.titles.post, views: 4 }]);
    expect(report.lists.language.map((entry) => entry.key)).toEqual(["en", "de"]);
    expect(report.lists["notfound-referrer"]).toMatchObject([{ key: "/old\nexample.org", views: 3 }]);
    expect(report.lists["search-empty"]).toMatchObject([{ key: '=xyz, "q"', views: 2 }]);
    expect(report.lists.utm).toEqual([]);

    // In German the German titles; with a short list a post further down the pages is still among the posts.
    const german = await readStatistics(database.db, RANGE, { lang: "de", limit: 2 });
    expect(german.lists.page.map((entry) => entry.key)).toEqual(["/", post]);
    expect(german.lists.post.map((entry) => [entry.key, entry.title])).toEqual([
      [post, content.titles.postDe],
      ["/blog/deleted-post", null],
    ]);
    expect(german.lists.album.map((entry) => entry.key)).toEqual([album]);
    expect(german.lists.picture[0]?.title).toBe(content.titles.pictureDe);
  });

  it("gives the dashboard's week against the week before, and nothing when nothing was counted", async () => {
    expect(await readWeekVisitors(database.db, "2026-03-07")).toEqual({ visitors: 0, previous: 0, trend: null });
    await seedWeek();
    expect(await readWeekVisitors(database.db, "2026-03-07")).toEqual({
      visitors: 10,
      previous: 5,
      trend: { percent: 100 },
    });
  });

  it("writes the range's rows as CSV, a visitor's words quoted and never a formula", async () => {
    await seedWeek();
    let csv = "";
    for await (const part of statisticsCsv(database.db, { from: "2026-03-01", to: "2026-03-01" })) csv += part;
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("day,kind,key,views,visitors,member_views");
    expect(lines).toContain("2026-03-01,site,,10,4,2");
    expect(lines).toContain("2026-03-01,language,en,20,7,0");
    expect(csv).toContain('2026-03-01,search-empty,"\'=xyz, ""q""",2,2,0');
    expect(csv).toContain('2026-03-01,notfound-referrer,"/old\nexample.org",3,2,0');
    expect(csv).not.toContain("2026-03-02");
  });
});

// A year of a large site: 365 days × 2,000 pages (730,000 rows), made by the database itself. What the reads take is
// printed, not asserted: a timed test on a shared machine fails at random (performance: scripts/measure-statistics-reads.ts).
describe.each(databaseKinds)("the statistics reads over a year of many pages (%s)", (kind) => {
  const database = useTestDatabase(kind, "all");

  it("sums a year of 2,000 pages a day in the database and answers the first pages", async () => {
    const db = database.db;
    const seedStart = performance.now();
    if (kind === "postgres") {
      await sql`insert into stats_daily (day, kind, key, views, visitors, member_views)
        select to_char(date '2025-01-01' + d, 'YYYY-MM-DD'), 'page', '/p/' || p, 1 + (p % 50), 1 + (p % 7), 0
        from generate_series(0, 364) as d, generate_series(0, 1999) as p`.execute(db);
      await sql`analyze stats_daily`.execute(db);
    } else {
      await sql`insert into stats_daily (day, kind, key, views, visitors, member_views)
        with recursive d(n) as (select 0 union all select n + 1 from d where n < 364),
          p(n) as (select 0 union all select n + 1 from p where n < 1999)
        select strftime('%Y-%m-%d', '2025-01-01', '+' || d.n || ' days'), 'page', '/p/' || p.n, 1 + (p.n % 50),
          1 + (p.n % 7), 0
        from d, p`.execute(db);
      await sql`analyze`.execute(db);
    }
    const seeded = performance.now() - seedStart;
    const range = { from: "2025-01-01", to: "2025-12-31" };
    const timings: number[] = [];
    let report: Awaited<ReturnType<typeof readStatistics>> | undefined;
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      report = await readStatistics(db, range);
      timings.push(performance.now() - start);
    }
    console.info(
      `statistics reads, ${kind}, 730,000 page rows: seeded in ${Math.round(seeded)} ms, a year's screen in ${timings
        .map((ms) => `${Math.round(ms)} ms`)
        .join(", ")}`,
    );
    // The pages with 50 views a day (p % 50 = 49), in the order of their keys.
    expect(report?.lists.page.slice(0, 3)).toEqual([
      {
        key: "/p/1049",
        title: null,
        views: 50 * 365,
        visitors: 365 * (1 + (1049 % 7)),
        previousViews: 0,
        trend: "new",
      },
      {
        key: "/p/1099",
        title: null,
        views: 50 * 365,
        visitors: 365 * (1 + (1099 % 7)),
        previousViews: 0,
        trend: "new",
      },
      {
        key: "/p/1149",
        title: null,
        views: 50 * 365,
        visitors: 365 * (1 + (1149 % 7)),
        previousViews: 0,
        trend: "new",
      },
    ]);
    expect(report?.series).toHaveLength(365);
  }, 180_000);
});
