/**
 * Where the server spends its CPU on uncached pages (issue 23): the production build with `npm start`'s flags and
 * the page cache off (on with `--cached`), on the bench's site (50 pictures, the sample links, FAQ and video), pinned to core 0, loaded
 * by wrk on core 1 while V8's sampling profiler runs. For each page (as a visitor, and as a signed-in member in no
 * group) it prints the top functions and modules by self time, as shares of the samples in which the server was
 * busy. Shares, not times: they hold on a busy machine. Run it on two builds (a worktree of each) for before/after.
 *
 *   npm run build && npx tsx scripts/measure-cpu-profile.ts [--seconds 10] [--connections 10] [--top 10]
 *        [--path / --path /home --path /blog] [--cached]
 *
 * `--cached` profiles with the page cache on (the visitors' pages then are kept answers; a member's never are).
 * `--root DIR` profiles another checkout's build (a worktree of an older revision, built), a visitor only, on the site
 * its own first start makes (the sample content: an older build cannot read a newer build's database); `--empty`
 * profiles this build on such a site, for a before/after of the same pages.
 * `--search` profiles the search section's site instead (scripts/bench/search.ts: 10,000 pictures and 2,000 posts,
 * or `--pictures`/`--posts`): its rotation of searches as `/search` pages and as the type-ahead's requests, then the
 * uncached `/blog` they are measured against.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { freePort, TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { summariseProfile } from "./bench/cpu-profile.ts";
import { connectInspector } from "./bench/inspector.ts";
import { signInMember } from "./bench/member-pages.ts";
import { pinningNote, startApp } from "./bench/processes.ts";
import { searchScript } from "./bench/search.ts";
import { seedSearchData } from "./bench/search-seed.ts";
import { copyPictureRows, seedDataFolder } from "./bench/seed-data.ts";
import { runWrk, type WrkOptions } from "./bench/wrk.ts";
import { buildIsCurrent } from "./build-if-stale.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string" },
    connections: { type: "string" },
    top: { type: "string" },
    path: { type: "string", multiple: true },
    cached: { type: "boolean", default: false },
    search: { type: "boolean", default: false },
    pictures: { type: "string" },
    posts: { type: "string" },
    root: { type: "string" },
    empty: { type: "boolean", default: false },
  },
});
const SECONDS = Number(values.seconds ?? 10);
const CONNECTIONS = Number(values.connections ?? 10);
const TOP = Number(values.top ?? 10);
const PATHS = values.path ?? ["/", "/home", "/blog"];
/** With the page cache on, a visitor's pages are kept answers: the profile is of the cached path. */
const CACHED = values.cached ?? false;
/** As the bench's site: real pictures through the pipeline, copied as rows up to 50. */
const REAL_PICTURES = 24;
const PICTURES = 50;
/** V8's sampling interval: fine enough for a few thousand samples in 10 s, coarse enough to cost little. */
const SAMPLE_INTERVAL_US = 200;

if (!buildIsCurrent()) {
  console.error("The production build is missing or older than the sources: run `npm run build` first.");
  process.exit(1);
}

const SEARCH = values.search ?? false;
const ROOT_DIR = values.root ? path.resolve(values.root) : undefined;
/** The site its own start makes: no seeding by this checkout, no member (the sign-in writes this build's rows). */
const EMPTY = values.empty || ROOT_DIR !== undefined;
if (SEARCH && EMPTY) {
  console.error("--search seeds its own site with this checkout's code: it cannot go with --root or --empty.");
  process.exit(1);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-profile-"));
/**
 * With `--search`: the rotation's scripts, and the pages it profiles ("search" stands for the rotation as `/search`
 * pages, "typeahead" for the same searches as the header's type-ahead asks for them).
 */
const searchLua = { search: path.join(dataDir, "search.lua"), typeahead: path.join(dataDir, "typeahead.lua") };
if (SEARCH) {
  const counts = { pictures: Number(values.pictures ?? 10_000), posts: Number(values.posts ?? 2_000) };
  console.log(`Seeding the search section's site: ${counts.pictures} pictures and ${counts.posts} posts…`);
  await seedSearchData(dataDir, counts, TEST_AUTH_SECRET);
  fs.writeFileSync(searchLua.search, searchScript("page"));
  fs.writeFileSync(searchLua.typeahead, searchScript("typeahead"));
} else if (!EMPTY) {
  console.log(`Seeding ${REAL_PICTURES} pictures (${PICTURES} as rows)…`);
  await seedDataFolder(dataDir, { realPictures: REAL_PICTURES, authSecret: TEST_AUTH_SECRET });
  copyPictureRows(sqliteFileIn(dataDir), PICTURES);
}
const pages = SEARCH ? (values.path ?? ["search", "typeahead", "/blog"]) : PATHS;
const memberCookie = EMPTY ? null : await signInMember(sqliteFileIn(dataDir), TEST_AUTH_SECRET);
const inspectorPort = await freePort();
const server = await startApp({
  dataDir,
  authSecret: TEST_AUTH_SECRET,
  pageCache: CACHED,
  // The rotation gives each request an address of a pool (X-Forwarded-For), as the bench does: below the limit.
  env: SEARCH ? { TRUST_PROXY: "1" } : {},
  nodeFlags: [`--inspect=127.0.0.1:${inspectorPort}`],
  root: ROOT_DIR,
});
const inspector = await connectInspector(inspectorPort);
const percent = (share: number) => `${(share * 100).toFixed(1)} %`.padStart(7);
console.log(
  `Page cache ${CACHED ? "on" : "off"}, ${SECONDS} s at ${CONNECTIONS} connections per page; ${pinningNote()}\n`,
);
try {
  const readers: [string, Record<string, string>][] = [["visitor", {}]];
  if (memberCookie) readers.push(["member", { Cookie: memberCookie }]);
  for (const [reader, headers] of readers) {
    for (const page of pages) {
      const rotation = page === "search" || page === "typeahead" ? searchLua[page] : undefined;
      const url = server.url(rotation ? "/" : page);
      const options: WrkOptions = { connections: CONNECTIONS, seconds: SECONDS, headers };
      if (rotation) options.script = rotation;
      // Warm: the first requests compile and fill the kept values; the profile is of the steady state.
      await runWrk(url, { ...options, seconds: 2 });
      await inspector.startProfile(SAMPLE_INTERVAL_US);
      const result = await runWrk(url, options);
      const profile = await inspector.stopProfile();
      if (result.non2xx > 0 || result.socketErrors > 0) throw new Error(`${reader} ${page}: errors during the run`);
      const { functions, modules } = summariseProfile(profile, TOP);
      console.log(`${reader} ${page}: ${Math.round(result.requestsPerSecond)} req/s (profiler on)`);
      console.log(`  top ${TOP} functions by self time:`);
      for (const entry of functions) console.log(`  ${percent(entry.share)}  ${entry.name}`);
      console.log(`  top ${TOP} modules by self time:`);
      for (const entry of modules) console.log(`  ${percent(entry.share)}  ${entry.name}`);
      console.log("");
    }
  }
} finally {
  inspector.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
