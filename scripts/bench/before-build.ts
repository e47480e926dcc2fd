import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { ServerProcess } from "#tests/support/server-process.ts";
import { BENCH_POST } from "./bench-post.ts";
import { startApp, startNginx } from "./processes.ts";
import type { SiteSide } from "./site-rounds.ts";
import { type SiteRowsInput, siteRows } from "./site-rows.ts";
import type { Row } from "./stats.ts";
import { fetchPage } from "./uploads.ts";

/*
 * `--before DIR`: the site section's figures of another revision, measured in the same run as this build's, round
 * by round (issue 23: "every figure … printed before and after in one run"). DIR is a built checkout of that
 * revision with its dependencies (`git worktree add DIR REV`, `npm ci` or a link to node_modules, `npm run build`).
 * An older revision may not read this one's database (its migrations are fewer), so its data folder is made by its
 * own code: a child process in DIR imports DIR's seeding and factories (the same steps as this build's,
 * scripts/bench/seed-data.ts, there since the bench began) and its post service. Its servers run its own
 * `server.js` with its own `npm start` flags; the bare React Router app and the load generator are the same.
 */

/** The revision of DIR (short hash, and "+changes" when its tree differs from it), or why it cannot be measured. */
export function beforeLabelOf(dir: string): string {
  for (const needed of ["server.js", "package.json", "build/server/index.js", "scripts/bench/seed-data.ts"]) {
    if (!fs.existsSync(path.join(dir, needed))) {
      throw new Error(`--before ${dir}: ${needed} is missing (a built checkout of the revision is needed)`);
    }
  }
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? "+changes" : ""}`;
  } catch {
    return path.basename(dir);
  }
}

/**
 * The child's script: DIR's own modules by their absolute paths (so `#app/…` inside them resolves in DIR), one
 * step per call: `seed` makes the data folder as seedDataFolder does (and the gallery grown to `small` pictures)
 * and signs in a member; `post` publishes the Lighthouse pages' post, in the folder of a server already running, as
 * publishBenchPost does for this build.
 */
function childScript(dir: string): string {
  const from = (file: string) => JSON.stringify(path.join(dir, file));
  return `import { copyPictureRows, seedDataFolder } from ${from("scripts/bench/seed-data.ts")};
import { openDatabase } from ${from("app/db/database.server.ts")};
import { createPost, setPostStatus } from ${from("app/domains/posts/post-admin.server.ts")};
import { sqliteFileIn } from ${from("app/runtime/runtime.server.ts")};
import { createUser } from ${from("tests/support/factories.ts")};
import { createSessionCookie } from ${from("tests/support/sessions.ts")};
const input = JSON.parse(process.argv[2]);
const output = {};
if (input.step === "seed") {
  const seeded = await seedDataFolder(input.dataDir, { realPictures: input.realPictures, authSecret: input.authSecret });
  output.adminCookie = seeded.adminCookie;
  if (input.realPictures < input.small) copyPictureRows(sqliteFileIn(input.dataDir), input.small);
}
const database = openDatabase({ sqliteFile: sqliteFileIn(input.dataDir) });
try {
  if (input.step === "seed") {
    const member = await createUser(database.db, { email: "bench-member@example.test" });
    const cookie = await createSessionCookie(database.db, member.id, input.authSecret);
    output.memberCookie = cookie.name + "=" + cookie.value;
  } else {
    const author = await createUser(database.db, { admin: true, email: "bench-author@example.test" });
    const actor = { id: author.id, email: author.email };
    const created = await createPost(database.db, actor, input.post);
    if (!created.ok) throw new Error("The bench's post was not created");
    const published = await setPostStatus(database.db, actor, created.id, { status: "published" });
    if (!published.ok) throw new Error("The bench's post was not published");
    output.postPath = "/blog/" + created.post.slug;
  }
} finally {
  await database.close();
}
console.log("BENCH-BEFORE " + JSON.stringify(output));
`;
}

/** Runs one step of the child's script in DIR; its last line's answer. */
export async function runChild(
  dir: string,
  scriptDir: string,
  input: Record<string, unknown>,
): Promise<Record<string, string>> {
  const script = path.join(scriptDir, "before-seed.mts");
  fs.writeFileSync(script, childScript(dir));
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, JSON.stringify(input)], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = stdout.split("\n").find((entry) => entry.startsWith("BENCH-BEFORE "));
  if (!line) throw new Error(`The --before checkout's seeding answered nothing:\n${stdout.slice(-2000)}`);
  return JSON.parse(line.slice("BENCH-BEFORE ".length)) as Record<string, string>;
}

export type BeforeSide = {
  label: string;
  /** Its page-cached server (idle memory, Lighthouse), its uncached one, and nginx with its bytes. */
  cached: ServerProcess;
  uncached: ServerProcess;
  nginx: ServerProcess | undefined;
  memberCookie: string;
  /** Publishes the Lighthouse pages' post on its page-cached server's data; the post's address. */
  publishPost: () => Promise<string>;
};

/**
 * The before side's servers: its data folder seeded by its own code, a page-cached and an uncached server on copies
 * of it, and nginx serving its own `/` and `/home` bytes. `started` lists each server for the bench's clean-up.
 */
export async function startBeforeSide(options: {
  dir: string;
  tempRoot: string;
  authSecret: string;
  realPictures: number;
  small: number;
  hasNginx: boolean;
  nginxDir: string;
  started: (server: Promise<ServerProcess>) => Promise<ServerProcess>;
}): Promise<BeforeSide> {
  const { dir, tempRoot, authSecret } = options;
  const label = beforeLabelOf(dir);
  console.log(`Seeding the --before checkout's data (${label}) with its own code…`);
  const seedDir = path.join(tempRoot, "before-seed");
  const seeded = await runChild(dir, tempRoot, {
    step: "seed",
    dataDir: seedDir,
    realPictures: options.realPictures,
    small: options.small,
    authSecret,
  });
  const copyOf = (name: string) => {
    const target = path.join(tempRoot, name);
    fs.cpSync(seedDir, target, { recursive: true });
    return target;
  };
  const cachedDir = copyOf("before-cached");
  const [cached, uncached] = await Promise.all([
    options.started(startApp({ dataDir: cachedDir, authSecret, pageCache: true, root: dir })),
    options.started(startApp({ dataDir: copyOf("before-uncached"), authSecret, pageCache: false, root: dir })),
  ]);
  let nginx: ServerProcess | undefined;
  if (options.hasNginx) {
    const home = { "/": await fetchPage(cached.url("/")), "/home": await fetchPage(cached.url("/home")) };
    // Beside this build's nginx folder: nginx's worker (nobody) cannot read the bench's private temp folder.
    fs.chmodSync(options.nginxDir, 0o755);
    const nginxDir = path.join(options.nginxDir, "before");
    fs.mkdirSync(nginxDir);
    nginx = await options.started(startNginx(nginxDir, home));
  }
  return {
    label,
    cached,
    uncached,
    nginx,
    memberCookie: seeded.memberCookie ?? "",
    publishPost: async () =>
      (await runChild(dir, tempRoot, { step: "post", dataDir: cachedDir, post: BENCH_POST })).postPath ?? "",
  };
}

/** The before side as the site section's rounds measure it: the same bare app, no scaling. */
export function beforeSiteSide(before: BeforeSide, bare: ServerProcess): SiteSide {
  const servers = { cached: before.cached, uncached: before.uncached, bare, nginx: before.nginx };
  return { prefix: "before ", servers, scalingPaths: [], memberCookie: before.memberCookie };
}

/**
 * The rows measured on both sides, each with its before and after figures and verdicts: this build's rows as they
 * are, matched by their figure's text to the before side's, made from its figures (recorded with the "before "
 * prefix) the same way; rows the before side did not measure are left out. `input` is this build's, but for the
 * Lighthouse results, which are the before side's.
 */
export function compareWithBefore(
  before: BeforeSide,
  after: Row[],
  input: SiteRowsInput,
): { label: string; rows: { figure: string; before: Row; after: Row }[] } {
  const earlier = new Map(
    siteRows({ ...input, values: (name) => input.values(`before ${name}`) }).map((row) => [row.figure, row]),
  );
  const rows = after.flatMap((row) => {
    const match = earlier.get(row.figure);
    return match && !match.verdict.startsWith("skipped") ? [{ figure: row.figure, before: match, after: row }] : [];
  });
  return { label: before.label, rows };
}
