import type { CountedView } from "#app/domains/statistics/statistics-recorder.server.ts";
import type { DeviceClass, LanguageClass } from "#app/domains/statistics/visit-classes.ts";

/*
 * A day's views as three instances behind a balancer would see them, for the statistics section (statistics.ts):
 * pages by a Zipf-like popularity, visitors (address + user agent) who come back in visits of a few pages, more by
 * day than by night, with referrers on a visit's first page, languages, devices, searches, pictures opened and broken
 * links. Made from a seeded generator (the same day every run) and held in typed arrays: a million view objects at
 * once would weigh more than the recorder they feed, which only ever holds 5 seconds of them.
 */

export type TrafficSettings = {
  /** Page views counted in `site` (the broken links come on top: `notFoundShare` of these). */
  views: number;
  pages: number;
  visitors: number;
  /** The simulated day, YYYY-MM-DD (UTC). */
  day: string;
  instances: number;
  /** Each recorder's flush period in simulated ms: its timer's 5 s (the smoke run's 5 minutes, to be quick). */
  flushMs: number;
};

export type Traffic = {
  settings: TrafficSettings;
  /** Every request counted, views and broken links, in time order. */
  count: number;
  notFound: number;
  /** Visitors with at least one page view (each has one: the first view of their first visit). */
  visitorsWithViews: number;
  /** Milliseconds since the epoch of request `i` (time order). */
  atOf(i: number): number;
  instanceOf(i: number): number;
  viewOf(i: number): CountedView;
};

const NOT_FOUND_SHARE = 0.01;
const NEW_VISIT_SHARE = 0.25;
const REFERRER_SHARE = 0.35;
const UTM_SHARE = 0.03;
const SEARCH_SHARE = 0.02;
const PICTURE_SHARE = 0.03;
const DATA_SHARE = 0.85;
const DAY_MS = 86_400_000;
const REFERRERS = Array.from(
  { length: 300 },
  (_, i) =>
    (i < 5
      ? ["google.com", "duckduckgo.com", "bing.com", "mastodon.social", "news.ycombinator.com"][i]
      : `site-${i}.example`) as string,
);
const UTM_SOURCES = Array.from({ length: 10 }, (_, i) => `newsletter-${i}`);
const QUERIES = Array.from({ length: 3000 }, (_, i) => `query ${i}`);
const PICTURES = Array.from({ length: 5000 }, (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`);
/** `extra` holds a search's query index below this, a picture's index above (a search needs fewer). */
const PICTURE_BASE = 1_000_000;
const BAD_PATHS = Array.from({ length: 1000 }, (_, i) => `/old/page-${i}`);

/** mulberry32: small, fast and the same sequence for a seed on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws an index by its weight (a binary search in the running sums). */
function weighted(weights: readonly number[], random: () => number): () => number {
  const cumulative = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((weight, i) => {
    total += weight;
    cumulative[i] = total;
  });
  return () => {
    const target = random() * total;
    let low = 0;
    let high = weights.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** Draws 0..n-1 with weight 1/(k+1): a few pages take most views, as on every site. */
function zipf(n: number, random: () => number): () => number {
  return weighted(
    Array.from({ length: n }, (_, k) => 1 / (k + 1)),
    random,
  );
}

/** A moment of the day in ms, more by day than by night (a minute drawn by weight, a second within it at random). */
function timeOfDay(random: () => number): () => number {
  const minute = weighted(
    Array.from({ length: 1440 }, (_, m) => 0.15 + Math.sin((Math.PI * m) / 1440) ** 2),
    random,
  );
  return () => (minute() + random()) * 60_000;
}

export function pageKeys(pages: number): string[] {
  // The home page first (the most popular), the search page and the gallery among the top: they take those views.
  return Array.from({ length: pages }, (_, k) =>
    k === 0
      ? "/"
      : k === 1
        ? "/gallery"
        : k === 2
          ? "/search"
          : k % 3 === 0
            ? `/blog/post-${k}`
            : `/gallery/album-${k}`,
  );
}

export function makeTraffic(settings: TrafficSettings): Traffic {
  const { views, pages, visitors, instances } = settings;
  if (visitors > views) throw new Error("Every visitor needs a view: fewer visitors than views");
  const random = generator(46);
  const page = zipf(pages, random);
  const referrer = zipf(REFERRERS.length, random);
  const query = zipf(QUERIES.length, random);
  const picture = zipf(PICTURES.length, random);
  const moment = timeOfDay(random);
  const notFound = Math.round(views * NOT_FOUND_SHARE);
  const count = views + notFound;
  // The sort below packs the time and the index in one double: 86.4 M ms × 2^22 stays below 2^53.
  if (count >= 2 ** 22) throw new Error("At most 4 million requests a simulated day");

  // Visits: each visitor's first, then every further view either starts a visit of someone (returning visitors
  // favoured) or joins one already made, so that a visit has a few pages.
  const visitOf = new Int32Array(views);
  const visitVisitor: number[] = [];
  const visitStart: number[] = [];
  for (let v = 0; v < visitors; v += 1) {
    visitOf[v] = v;
    visitVisitor.push(v);
    visitStart.push(moment());
  }
  for (let i = visitors; i < views; i += 1) {
    if (random() < NEW_VISIT_SHARE) {
      visitOf[i] = visitVisitor.length;
      visitVisitor.push(Math.floor(random() ** 2 * visitors));
      visitStart.push(moment());
    } else {
      visitOf[i] = Math.floor(random() * visitVisitor.length);
    }
  }

  const at = new Float64Array(count);
  const visitor = new Int32Array(count);
  const pageOf = new Int32Array(count);
  /** bit 0: a broken link; bit 1: a client-side navigation's data; bit 2: a visit's first page. */
  const flags = new Uint8Array(count);
  const extra = new Int32Array(count).fill(-1);
  const referrerOf = new Int16Array(count).fill(-1);
  const instance = new Uint8Array(count);
  const pagesSoFar = new Int32Array(visitVisitor.length);
  const clock = new Float64Array(visitStart);
  for (let i = 0; i < views; i += 1) {
    const visit = visitOf[i] as number;
    const first = (pagesSoFar[visit] as number) === 0;
    pagesSoFar[visit] = (pagesSoFar[visit] as number) + 1;
    // The next page of a visit 5 s to 3 min after the last; a visit that would pass midnight stays in the day.
    if (!first) clock[visit] = (clock[visit] as number) + 5_000 + random() * 175_000;
    at[i] = Math.min(clock[visit] as number, DAY_MS - 1);
    visitor[i] = visitVisitor[visit] as number;
    const roll = random();
    if (roll < SEARCH_SHARE) {
      pageOf[i] = 2;
      // The query's index when something was found, -2 - index when nothing was (-1 is no search).
      extra[i] = random() < 0.85 ? query() : -2 - query();
    } else if (roll < SEARCH_SHARE + PICTURE_SHARE) {
      pageOf[i] = 1;
      extra[i] = PICTURE_BASE + picture();
    } else {
      pageOf[i] = page();
    }
    if (first) {
      flags[i] = 4;
      if (random() < REFERRER_SHARE) referrerOf[i] = referrer();
      else if (random() < UTM_SHARE) referrerOf[i] = -2 - Math.floor(random() * UTM_SOURCES.length);
    } else if (random() < DATA_SHARE || (extra[i] as number) >= PICTURE_BASE) {
      flags[i] = 2;
    }
    instance[i] = Math.floor(random() * instances);
  }
  for (let i = views; i < count; i += 1) {
    at[i] = moment();
    visitor[i] = Math.floor(random() * visitors);
    pageOf[i] = Math.floor(random() * BAD_PATHS.length);
    flags[i] = 1;
    if (random() < 0.3) referrerOf[i] = referrer();
    instance[i] = Math.floor(random() * instances);
  }

  const order = new Float64Array(count);
  for (let i = 0; i < count; i += 1) order[i] = Math.floor(at[i] as number) * 2 ** 22 + i;
  order.sort();
  const index = new Int32Array(count);
  for (let i = 0; i < count; i += 1) index[i] = (order[i] as number) % 2 ** 22;

  // The recorder takes a data request for the page a visitor is on (on that instance) as a revalidation, not a view.
  // Made a document request here, so that every view generated is one view counted and the sums can be checked.
  const lastPage = new Int32Array(instances * visitors).fill(-1);
  for (let n = 0; n < count; n += 1) {
    const i = index[n] as number;
    if ((flags[i] as number) & 1) continue;
    const slot = (instance[i] as number) * visitors + (visitor[i] as number);
    if ((flags[i] as number) & 2 && lastPage[slot] === pageOf[i] && (extra[i] as number) < PICTURE_BASE) {
      flags[i] = (flags[i] as number) & ~2;
    }
    lastPage[slot] = pageOf[i] as number;
  }

  const dayStart = Date.parse(`${settings.day}T00:00:00Z`);
  const keys = pageKeys(pages);
  const languages: LanguageClass[] = ["en", "en", "de", "other"];
  const devices: DeviceClass[] = ["phone", "desktop", "phone", "tablet", "desktop", "phone"];
  return {
    settings,
    count,
    notFound,
    visitorsWithViews: visitors,
    atOf: (n) => dayStart + (at[index[n] as number] as number),
    instanceOf: (n) => instance[index[n] as number] as number,
    viewOf(n) {
      const i = index[n] as number;
      const who = visitor[i] as number;
      const bits = flags[i] as number;
      const ref = referrerOf[i] as number;
      const more = extra[i] as number;
      const missing = (bits & 1) === 1;
      const device = devices[who % devices.length] as DeviceClass;
      return {
        at: new Date(dayStart + (at[i] as number)),
        page: missing ? (BAD_PATHS[pageOf[i] as number] as string) : (keys[pageOf[i] as number] as string),
        status: missing ? 404 : 200,
        data: (bits & 2) === 2,
        client: `10.${(who >> 16) & 255}.${(who >> 8) & 255}.${who & 255}`,
        userAgent: `Mozilla/5.0 (bench; ${device}) Browser/${100 + (who % 37)}`,
        member: who % 100 === 0,
        language: languages[(who >> 3) % languages.length] as LanguageClass,
        device,
        referrer: ref >= 0 ? (REFERRERS[ref] as string) : null,
        utmSource: ref <= -2 ? (UTM_SOURCES[-2 - ref] as string) : null,
        picture: more >= PICTURE_BASE ? (PICTURES[more - PICTURE_BASE] as string) : null,
        search:
          more === -1 || more >= PICTURE_BASE
            ? null
            : { query: QUERIES[more >= 0 ? more : -2 - more] as string, found: more >= 0 },
      };
    },
  };
}
