import { type Kysely, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { addDays, type DayRange, daysIn, previousOf } from "./statistics-range.ts";
import {
  type DayPoint,
  LIST_KINDS,
  type ListKind,
  type ListName,
  type StatisticsReport,
  type TopEntry,
  type Totals,
  type Trend,
  trendOf,
} from "./statistics-report.ts";

/*
 * What the statistics screen and the dashboard read (issue 46), summed in the database: a range's rows of a kind are
 * found by `stats_daily_kind_day_idx` and summed per key there, and only each list's first few keys come back. A
 * key's visitors over several days are the sum of its daily visitors: a visitor is known for one day only (the day's
 * salt is deleted), so nobody can say whether Monday's and Tuesday's visitor were one person.
 */

/** The series of the whole site, every day of the range present (zero where nothing was counted). */
export async function readSiteSeries(
  db: Kysely<Database>,
  range: DayRange,
): Promise<{ series: DayPoint[]; totals: Totals; previousTotals: Totals }> {
  const previous = previousOf(range);
  const rows = await db
    .selectFrom("stats_daily")
    .select(["day", "views", "visitors", "member_views"])
    .where("kind", "=", "site")
    .where("day", ">=", previous.from)
    .where("day", "<=", range.to)
    .execute();
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const series = daysIn(range).map((day) => {
    const row = byDay.get(day);
    return {
      day,
      views: Number(row?.views ?? 0),
      visitors: Number(row?.visitors ?? 0),
      memberViews: Number(row?.member_views ?? 0),
    };
  });
  const sum = (points: DayPoint[]): Totals => ({
    views: points.reduce((total, point) => total + point.views, 0),
    visitors: points.reduce((total, point) => total + point.visitors, 0),
    memberViews: points.reduce((total, point) => total + point.memberViews, 0),
  });
  const before = rows
    .filter((row) => row.day < range.from)
    .map((row) => ({
      day: row.day,
      views: Number(row.views),
      visitors: Number(row.visitors),
      memberViews: Number(row.member_views),
    }));
  return { series, totals: sum(series), previousTotals: sum(before) };
}

type RankedRow = { kind: string; part: string; key: string; views: unknown; visitors: unknown; before_views: unknown };

/**
 * The first `limit` keys of every kind by views over the range, with their views in the period before, in one
 * statement: each kind's rows of both periods are read once by the (kind, day) index and summed per key, then
 * ranked per kind, and per part for the pages (posts and albums are pages too: their own lists come from the same
 * sums). A key seen only in the period before has nothing to show and is left out.
 */
async function readRanked(db: Kysely<Database>, range: DayRange, limit: number): Promise<RankedRow[]> {
  const previous = previousOf(range);
  const { rows } = await sql<RankedRow>`
    with sums as (
      select kind, key,
        sum(case when day >= ${range.from} then views else 0 end) as views,
        sum(case when day >= ${range.from} then visitors else 0 end) as visitors,
        sum(case when day < ${range.from} then views else 0 end) as before_views,
        case
          when kind = 'page' and key like '/blog/%' and key not like '/blog/tag/%' and key <> '/blog/preview'
            then 'post'
          when kind = 'page' and key like '/albums/%' then 'album'
          else ''
        end as part
      from stats_daily
      where kind in (${sql.join(LIST_KINDS)}) and day >= ${previous.from} and day <= ${range.to}
      group by kind, key
    ),
    ranked as (
      select kind, part, key, views, visitors, before_views,
        row_number() over (partition by kind order by views desc, key) as place,
        row_number() over (partition by kind, part order by views desc, key) as place_in_part
      from sums
      where views > 0
    )
    select kind, part, key, views, visitors, before_views from ranked
    where place <= ${limit} or (part <> '' and place_in_part <= ${limit})
    order by kind, views desc, key`.execute(db);
  return rows;
}

type Titles = { posts: Map<string, string>; albums: Map<string, string>; pictures: Map<string, string> };

/** A title in the reader's language, the other one where it has none. */
function titleIn(lang: "en" | "de", english: string, german: string): string {
  return (lang === "de" ? german || english : english || german).trim();
}

/** The titles of the posts (by any slug they had), albums (by either slug) and pictures (by id) the keys name. */
async function readTitles(
  db: Kysely<Database>,
  keys: { posts: string[]; albums: string[]; pictures: string[] },
  lang: "en" | "de",
): Promise<Titles> {
  const titles: Titles = { posts: new Map(), albums: new Map(), pictures: new Map() };
  if (keys.posts.length > 0) {
    const rows = await db
      .selectFrom("post_slugs")
      .innerJoin("posts", "posts.id", "post_slugs.post_id")
      .select(["post_slugs.slug", "posts.title", "posts.title_de"])
      .where("post_slugs.slug", "in", keys.posts)
      .execute();
    for (const row of rows) titles.posts.set(row.slug, titleIn(lang, row.title, row.title_de));
  }
  if (keys.albums.length > 0) {
    const rows = await db
      .selectFrom("albums")
      .select(["slug", "slug_de", "title", "title_de"])
      .where((eb) => eb.or([eb("slug", "in", keys.albums), eb("slug_de", "in", keys.albums)]))
      .execute();
    for (const row of rows) {
      const title = titleIn(lang, row.title, row.title_de);
      titles.albums.set(row.slug, title);
      titles.albums.set(row.slug_de, title);
    }
  }
  if (keys.pictures.length > 0) {
    const rows = await db
      .selectFrom("gallery_images")
      .select(["id", "title", "title_de"])
      .where("id", "in", keys.pictures)
      .execute();
    for (const row of rows) titles.pictures.set(row.id, titleIn(lang, row.title, row.title_de));
  }
  return titles;
}

/** The slug a page's key names, when it is a post's or an album's address. */
function slugOf(key: string, prefix: "/blog/" | "/albums/"): string | null {
  if (!key.startsWith(prefix)) return null;
  const slug = key.slice(prefix.length);
  return slug !== "" && !slug.includes("/") ? slug : null;
}

function titleOfKey(kind: string, key: string, titles: Titles): string | null {
  if (kind === "picture") return titles.pictures.get(key) || null;
  if (kind !== "page" && kind !== "entry" && kind !== "exit") return null;
  const post = slugOf(key, "/blog/");
  if (post) return titles.posts.get(post) || null;
  const album = slugOf(key, "/albums/");
  if (album) return titles.albums.get(album) || null;
  return null;
}

/** The whole screen's numbers for the range: the daily series, totals with trends, and each list's first `limit`. */
export async function readStatistics(
  db: Kysely<Database>,
  range: DayRange,
  options: { limit?: number; lang?: "en" | "de" } = {},
): Promise<StatisticsReport> {
  const limit = options.limit ?? 10;
  const [site, ranked] = [await readSiteSeries(db, range), await readRanked(db, range, limit)];
  const lists = Object.fromEntries([...LIST_KINDS, "post", "album"].map((name) => [name, []])) as unknown as Record<
    ListName,
    TopEntry[]
  >;
  const keys = { posts: new Set<string>(), albums: new Set<string>(), pictures: new Set<string>() };
  for (const row of ranked) {
    if (row.kind === "picture") keys.pictures.add(row.key);
    if (row.kind !== "page" && row.kind !== "entry" && row.kind !== "exit") continue;
    const post = slugOf(row.key, "/blog/");
    if (post) keys.posts.add(post);
    const album = slugOf(row.key, "/albums/");
    if (album) keys.albums.add(album);
  }
  const titles = await readTitles(
    db,
    { posts: [...keys.posts], albums: [...keys.albums], pictures: [...keys.pictures] },
    options.lang ?? "en",
  );
  const placed = new Map<string, number>();
  for (const row of ranked) {
    const views = Number(row.views);
    const previousViews = Number(row.before_views);
    const entry: TopEntry = {
      key: row.key,
      title: titleOfKey(row.kind, row.key, titles),
      views,
      visitors: Number(row.visitors),
      previousViews,
      trend: trendOf(views, previousViews),
    };
    // Rows come in order of views per kind: the first `limit` of a kind are its list, and a post's or an album's
    // also its part's list (a post further down the pages can still be among the first posts).
    const kind = row.kind as ListKind;
    const count = placed.get(kind) ?? 0;
    if (count < limit) lists[kind].push(entry);
    placed.set(kind, count + 1);
    if (row.part === "post" && lists.post.length < limit) lists.post.push(entry);
    if (row.part === "album" && lists.album.length < limit) lists.album.push(entry);
  }
  return {
    range,
    ...site,
    trend: {
      views: trendOf(site.totals.views, site.previousTotals.views),
      visitors: trendOf(site.totals.visitors, site.previousTotals.visitors),
    },
    lists,
  };
}

/** The dashboard's line: visitors of the last seven days (today's so far included) against the seven before. */
export async function readWeekVisitors(
  db: Kysely<Database>,
  today: string,
): Promise<{ visitors: number; previous: number; trend: Trend }> {
  const week = { from: addDays(today, -6), to: today };
  const { totals, previousTotals } = await readSiteSeries(db, week);
  return {
    visitors: totals.visitors,
    previous: previousTotals.visitors,
    trend: trendOf(totals.visitors, previousTotals.visitors),
  };
}

/** Whether anything at all was ever counted (the screen's empty state). */
export async function hasAnyStatistics(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom("stats_daily").select("day").where("kind", "=", "site").limit(1).executeTakeFirst();
  return row !== undefined;
}
