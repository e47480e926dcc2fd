// Issue 21: "a restricted item answers exactly like a missing one: 404, same body and timing, so its existence does
// not leak". Measures that over HTTP against the production build (`npx react-router build` first; nothing is built
// here) on a fresh data folder (SQLite), or a fresh database on the PostgreSQL server of --database-url:
//   npx tsx scripts/measure-not-found-timing.ts [--pairs 2000] [--warmup 100] [--database-url postgres://…]
// Seeded: a published post for members, one for a group, an album for members and one for the group (albums without
// pictures: an album the reader may not see answers 404 before its pictures are read), and a public post. As a
// visitor (no cookie) and as a signed-in member in no group, each pair sends one request to a restricted item's
// address and one to a made-up address of the same shape and length (page and `.data`), one connection at a time,
// alternating which goes first; all comparisons take turns pair by pair, so a busy moment hits them alike. Printed
// per reader and address: statuses, whether the bodies were identical (CSP nonce removed, the slug swapped),
// median and p90 times (µs), the ratio of medians restricted ÷ missing with its range over 5 equal chunks of the
// run, and the median of the paired differences. The control, a public post (200) against a missing one, shows
// that the method sees a difference when there is one.
import { parseArgs } from "node:util";
import { albumFieldsSchema } from "#app/domains/albums/album-schema.ts";
import { createAlbum } from "#app/domains/albums/albums.server.ts";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import type { PostWriteResult } from "#app/domains/posts/post-rows.server.ts";
import { dataPathOf } from "#tests/support/admin-routes.ts";
import { startServerOnFreshDatabase } from "#tests/support/admin-server.ts";
import { type MemberReader, makeMemberReaders, readerRequests } from "#tests/support/member-readers.ts";
import type { HttpResponse, ServerProcess } from "#tests/support/server-process.ts";
import type { TestDatabase } from "#tests/support/test-database.ts";
import { formatNumber, median, percentile } from "./bench/stats.ts";
import { buildIsCurrent } from "./build-if-stale.js";

const { values: options } = parseArgs({
  options: {
    pairs: { type: "string", default: "2000" },
    warmup: { type: "string", default: "100" },
    "database-url": { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (options.help) {
  console.log("Usage: npx tsx scripts/measure-not-found-timing.ts [--pairs 2000] [--warmup 100] [--database-url URL]");
  process.exit(0);
}
const PAIRS = Number(options.pairs);
const WARMUP = Number(options.warmup);
const CHUNKS = 5;
if (!Number.isInteger(PAIRS) || PAIRS < CHUNKS || !Number.isInteger(WARMUP) || WARMUP < 0) {
  console.error("--pairs must be a whole number of at least 5, --warmup a whole number.");
  process.exit(1);
}
// A server started now on a stale build would build by itself (server.js) in the middle of the measurement.
if (!buildIsCurrent()) {
  console.error("The production build is missing or older than the sources: run `npx react-router build` first.");
  process.exit(1);
}

type Reader = Extract<MemberReader, "visitor" | "member">;
/** One comparison: the address of an item (restricted, or the control's public one) against a missing one. */
type Comparison = {
  reader: Reader;
  label: string;
  /** The item's slug and a made-up one of the same length, swapped in bodies before they are compared. */
  slug: string;
  unknown: string;
  item: string;
  missing: string;
  control: boolean;
};
type Side = { micros: number[]; statuses: Set<number>; lengths: Set<number> };
type Result = { comparison: Comparison; restricted: Side; missing: Side; differentBodies: number };

/** A made-up slug of the same shape: every letter and digit replaced by a random letter, the hyphens kept. */
function unknownLike(slug: string, taken: Set<string>): string {
  for (;;) {
    const made = slug.replace(/[a-z0-9]/g, () => String.fromCharCode(97 + Math.floor(Math.random() * 26)));
    if (!taken.has(made)) return made;
  }
}

/** The parts of an answer that differ between any two requests (the CSP nonce), as the leak matrix removes them. */
function normalized(body: string, slug: string, unknown: string): string {
  return body
    .replaceAll(slug, unknown)
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/"nonce":"[^"]*"/g, '"nonce":""');
}

function accepted(result: PostWriteResult): string {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.post.id;
}

let database: TestDatabase | undefined;
let server: ServerProcess | undefined;
let cleaning: Promise<void> | undefined;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await server?.stop().catch(() => null);
    await database?.destroy().catch((error: unknown) => console.error("Could not remove the database:", error));
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

async function seed(db: TestDatabase["db"]) {
  const readers = await makeMemberReaders(db);
  const { actor, familyGroup } = readers;
  const post = async (title: string, access: Record<string, string>) => {
    const id = accepted(
      await createPost(db, actor, {
        title,
        excerpt: `About ${title}.`,
        body: `A walk along the harbour: ${title}.\n\n${"Some ordinary prose about the day. ".repeat(40)}`,
        tags: "walks",
        ...access,
      }),
    );
    accepted(await setPostStatus(db, actor, id, { status: "published" }));
    const row = await db.selectFrom("posts").select("slug").where("id", "=", id).executeTakeFirstOrThrow();
    return row.slug;
  };
  const album = async (title: string, access: Record<string, string>) => {
    const made = await createAlbum(db, actor, albumFieldsSchema.parse({ title, ...access }));
    if (!made.ok) throw new Error(`refused: ${JSON.stringify(made)}`);
    const row = await db.selectFrom("albums").select("slug").where("id", "=", made.id).executeTakeFirstOrThrow();
    return row.slug;
  };
  return {
    cookies: readers.cookies,
    publicPost: await post("Harbour lights at dusk", {}),
    membersPost: await post("Harbour lanes for members", { visibility: "members" }),
    groupPost: await post("Harbour boats for family", { visibility: "groups", group_ids: familyGroup }),
    membersAlbum: await album("Harbour days for members", { visibility: "members" }),
    groupAlbum: await album("Harbour days for family", { visibility: "groups", group_ids: familyGroup }),
  };
}

type Scene = Awaited<ReturnType<typeof seed>>;

function comparisons(scene: Scene): Comparison[] {
  const taken = new Set<string>(Object.values(scene).filter((value) => typeof value === "string"));
  const list: Comparison[] = [];
  const add = (reader: Reader, what: string, base: "/blog" | "/albums", slug: string, control = false) => {
    const unknown = unknownLike(slug, taken);
    taken.add(unknown);
    const page = { item: `${base}/${slug}`, missing: `${base}/${unknown}` };
    list.push({ reader, label: `${base}/<${what}>`, slug, unknown, control, ...page });
    list.push({
      reader,
      label: `${base}/<${what}>.data`,
      slug,
      unknown,
      control,
      item: dataPathOf(page.item),
      missing: dataPathOf(page.missing),
    });
  };
  add("visitor", "members post", "/blog", scene.membersPost);
  add("visitor", "group post", "/blog", scene.groupPost);
  add("visitor", "members album", "/albums", scene.membersAlbum);
  add("visitor", "group album", "/albums", scene.groupAlbum);
  add("member", "group post", "/blog", scene.groupPost);
  add("member", "group album", "/albums", scene.groupAlbum);
  add("visitor", "public post, 200", "/blog", scene.publicPost, true);
  add("member", "public post, 200", "/blog", scene.publicPost, true);
  return list;
}

const emptySide = (): Side => ({ micros: [], statuses: new Set(), lengths: new Set() });

async function measure(
  get: (path: string, reader: Reader) => Promise<HttpResponse>,
  list: Comparison[],
): Promise<Result[]> {
  const results: Result[] = list.map((comparison) => ({
    comparison,
    restricted: emptySide(),
    missing: emptySide(),
    differentBodies: 0,
  }));
  const timed = async (path: string, reader: Reader) => {
    const started = process.hrtime.bigint();
    const response = await get(path, reader);
    return { response, micros: Number(process.hrtime.bigint() - started) / 1000 };
  };
  for (let pair = -WARMUP; pair < PAIRS; pair++) {
    for (const result of results) {
      const { comparison } = result;
      const itemFirst = pair % 2 === 0;
      const first = await timed(itemFirst ? comparison.item : comparison.missing, comparison.reader);
      const second = await timed(itemFirst ? comparison.missing : comparison.item, comparison.reader);
      if (pair < 0) continue;
      const [item, missing] = itemFirst ? [first, second] : [second, first];
      const sides: [Side, { response: HttpResponse; micros: number }, string][] = [
        [result.restricted, item, comparison.slug],
        [result.missing, missing, comparison.unknown],
      ];
      const bodies = sides.map(([side, answer, slug]) => {
        const body = normalized(answer.response.body, slug, comparison.unknown);
        side.micros.push(answer.micros);
        side.statuses.add(answer.response.status);
        side.lengths.add(Buffer.byteLength(body));
        return body;
      });
      if (bodies[0] !== bodies[1]) result.differentBodies++;
    }
    if (pair >= 0 && (pair + 1) % Math.max(1, Math.round(PAIRS / 10)) === 0) {
      process.stderr.write(`  ${pair + 1}/${PAIRS} pairs\n`);
    }
  }
  return results;
}

const micros = (value: number) => formatNumber(value);
const ratioText = (value: number) => value.toFixed(3);

/** The ratio of medians over CHUNKS equal, consecutive parts of the run: how much it moves with the machine's load. */
function chunkRatios(restricted: number[], missing: number[]): number[] {
  return chunked(restricted.length, (from, to) => median(restricted.slice(from, to)) / median(missing.slice(from, to)));
}

/** A figure of each of CHUNKS equal, consecutive parts of a run of `length` values. */
function chunked(length: number, figure: (from: number, to: number) => number): number[] {
  const size = Math.floor(length / CHUNKS);
  return Array.from({ length: CHUNKS }, (_, chunk) =>
    figure(chunk * size, chunk === CHUNKS - 1 ? length : (chunk + 1) * size),
  );
}

function table(results: Result[]): string {
  const lines = [
    "| reader | address | n | status item / missing | bodies identical | item median / p90 µs | missing median / p90 µs | ratio of medians | ratio over 5 chunks | median of paired Δ µs (5 chunks) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const { comparison, restricted, missing, differentBodies } of results) {
    const chunks = chunkRatios(restricted.micros, missing.micros);
    const deltas = restricted.micros.map((value, index) => value - (missing.micros[index] ?? Number.NaN));
    const deltaChunks = chunked(deltas.length, (from, to) => median(deltas.slice(from, to)));
    const statuses = (side: Side) => [...side.statuses].sort().join(", ");
    const lengths = (side: Side) => [...side.lengths].sort((a, b) => a - b).join(", ");
    const identical =
      differentBodies === 0
        ? `yes (${lengths(restricted)} B)`
        : `no: ${differentBodies} pairs (${lengths(restricted)} B vs ${lengths(missing)} B)`;
    lines.push(
      `| ${comparison.reader} | \`${comparison.label}\` | ${restricted.micros.length} | ${statuses(restricted)} / ${statuses(missing)} | ${identical} | ${micros(median(restricted.micros))} / ${micros(percentile(restricted.micros, 90))} | ${micros(median(missing.micros))} / ${micros(percentile(missing.micros, 90))} | ${ratioText(median(restricted.micros) / median(missing.micros))} | ${ratioText(Math.min(...chunks))}–${ratioText(Math.max(...chunks))} | ${micros(median(deltas))} (${micros(Math.min(...deltaChunks))} to ${micros(Math.max(...deltaChunks))}) |`,
    );
  }
  return lines.join("\n");
}

function verdicts(results: Result[]): string[] {
  const notes: string[] = [];
  for (const { comparison, restricted, missing, differentBodies } of results) {
    const name = `${comparison.reader} ${comparison.label}`;
    const chunks = chunkRatios(restricted.micros, missing.micros);
    const outside = chunks.every((ratio) => ratio > 1.03) || chunks.every((ratio) => ratio < 0.97);
    if (comparison.control) {
      notes.push(`control ${name}: ${outside ? "a difference seen in every chunk" : "NO consistent difference seen"}`);
      continue;
    }
    const all404 = [...restricted.statuses, ...missing.statuses].every((status) => status === 404);
    if (!all404) notes.push(`LEAK ${name}: statuses ${[...restricted.statuses]} vs ${[...missing.statuses]}`);
    if (differentBodies > 0) notes.push(`LEAK ${name}: the bodies differ in ${differentBodies} pairs`);
    if (outside) notes.push(`TIMING ${name}: the ratio of medians is outside 0.97–1.03 in every chunk`);
  }
  return notes;
}

try {
  const kind = options["database-url"] ? "postgres" : "sqlite";
  // createTestDatabase makes its fresh PostgreSQL database (and drops it afterwards) on TEST_DATABASE_URL's server.
  if (options["database-url"]) process.env.TEST_DATABASE_URL = options["database-url"];
  const started = await startServerOnFreshDatabase(kind);
  ({ database, server } = started);
  const scene = await seed(started.database.db);
  const { get, settled } = readerRequests(
    () => started.server,
    () => scene.cookies,
  );
  // The server learns of this process's writes a moment later (PostgreSQL's notification, the caches' versions).
  const shown = await settled(`/blog/${scene.publicPost}`, "visitor", (response) => response.status === 200);
  if (shown.status !== 200) throw new Error(`The public post answered ${shown.status}`);
  const list = comparisons(scene);
  console.error(
    `Measuring ${list.length} comparisons on ${kind}: ${WARMUP} warm-up pairs, then ${PAIRS} pairs each (${list.length * (PAIRS + WARMUP) * 2} requests)`,
  );
  const results = await measure(get, list);
  const node = process.version;
  console.log(`\n### Restricted ÷ missing, ${kind}, ${PAIRS} pairs (after ${WARMUP} warm-up pairs), Node ${node}\n`);
  console.log(table(results.filter((result) => !result.comparison.control)));
  console.log("\n### Control: a public post (200) ÷ a missing one (404)\n");
  console.log(table(results.filter((result) => result.comparison.control)));
  console.log("");
  for (const note of verdicts(results)) console.log(`- ${note}`);
  if (!verdicts(results).some((note) => !note.startsWith("control"))) {
    console.log("- every restricted address: 404, the missing one's body, no consistent timing difference");
  }
} catch (error) {
  // After a signal the server is stopped under the requests in flight: their errors are no news.
  if (!cleaning) console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
