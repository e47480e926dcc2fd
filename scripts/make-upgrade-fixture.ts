/*
 * Makes one fixture of tests/integration/upgrade-from-old-versions.test.ts: a small site's data as an OLDER version
 * of Vitrine wrote it, so that the test can start today's server on it (issue 42: an owner who updates after a year
 * jumps many migrations at once, on rows made by old code, which a test of one migration at a time never sees).
 *
 * The site must be made by the old version's own code, never by today's: this script copies itself into a checkout
 * of that version and runs there, with that version's modules and dependencies. To make (or make again) a fixture:
 *
 *   git worktree add --detach /tmp/old-REV REV && (cd /tmp/old-REV && npm ci)
 *   node scripts/make-upgrade-fixture.ts --checkout /tmp/old-REV --name NAME [--postgres postgres://postgres@127.0.0.1:5432/postgres]
 *
 * It writes tests/fixtures/upgrade/NAME/: sqlite.tar.gz (the whole DATA_DIR: vitrine.sqlite, auth-secret, storage/),
 * with --postgres also postgres.sql.gz (pg_dump, plain SQL) and postgres-files.tar.gz (that site's auth-secret and
 * storage/), and fixture.json (who and what the site holds, the test's expectations). The site has an admin and a
 * member with known passwords, published, draft and scheduled posts, small pictures (one whose sizes were still
 * being made when the old process stopped: a job in flight), and where the version has them, groups, private posts,
 * an album and a share link. The old checkout needs no build: only its runtime and services run.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type FixtureFacts = {
  commit: string;
  schemaVersion: string;
  admin: { email: string; password: string };
  member: { email: string; password: string };
  pictures: string[];
  inFlightPicture: string;
  /** Visible to visitors: published, and scheduled by the old version for a time that had come when it stopped. */
  publicPosts: { title: string; slug: string }[];
  scheduledPost: { title: string; slug: string };
  draftPost: { title: string; slug: string };
  /** Versions with members (migration 0024 onwards): posts only a signed-in member (of a group) may read. */
  memberPosts: { title: string; slug: string }[];
  album: { title: string; slug: string } | null;
  /** The post the share link opens (one for a group), where the version has share links. */
  sharedPost: { title: string; slug: string } | null;
  /** Per database: the share link's address (its token is random, so each site has its own). */
  sharePaths: Record<string, string>;
};

const FIXTURES = path.resolve(import.meta.dirname, "../tests/fixtures/upgrade");

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

// ---------------------------------------------------------------------------------------------------------------
// Outside: in today's checkout, runs the inside in the old one once per database and packs what it made.

function runInside(checkout: string, env: Record<string, string>): FixtureFacts {
  const factsFile = path.join(os.tmpdir(), `vitrine-fixture-facts-${randomBytes(4).toString("hex")}.json`);
  // tsx: an old version's code need not be TypeScript that Node runs by itself (its `npm run cli` used tsx too).
  const result = spawnSync("npx", ["tsx", "scripts/make-upgrade-fixture.ts", "--inside", factsFile], {
    cwd: checkout,
    stdio: "inherit",
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
  });
  if (result.status !== 0) throw new Error(`The old version could not make the site (exit ${result.status})`);
  const facts = JSON.parse(fs.readFileSync(factsFile, "utf8")) as FixtureFacts;
  fs.rmSync(factsFile);
  return facts;
}

function outside(checkout: string, name: string, postgresServer: string | undefined) {
  const out = path.join(FIXTURES, name);
  fs.mkdirSync(out, { recursive: true });
  fs.copyFileSync(import.meta.filename, path.join(checkout, "scripts/make-upgrade-fixture.ts"));
  const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: checkout, encoding: "utf8" }).trim();

  const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-fixture-sqlite-"));
  const facts = runInside(checkout, { DATA_DIR: sqliteDir });
  execFileSync("tar", ["-czf", path.join(out, "sqlite.tar.gz"), "-C", sqliteDir, "."]);
  fs.rmSync(sqliteDir, { recursive: true, force: true });
  const sharePaths: Record<string, string> = { sqlite: facts.sharePaths.site ?? "" };

  if (postgresServer) {
    const databaseName = `vitrine_fixture_${randomBytes(4).toString("hex")}`;
    const url = new URL(postgresServer);
    const psql = (sql: string) => execFileSync("psql", [postgresServer, "-qc", sql]);
    psql(`CREATE DATABASE ${databaseName}`);
    url.pathname = `/${databaseName}`;
    const postgresDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-fixture-postgres-"));
    try {
      const postgresFacts = runInside(checkout, { DATA_DIR: postgresDir, DATABASE_URL: url.toString() });
      sharePaths.postgres = postgresFacts.sharePaths.site ?? "";
      // Owner and grants left out: the test loads the dump into a database of its own, as another role may.
      const dump = execFileSync("pg_dump", ["--no-owner", "--no-privileges", url.toString()], {
        maxBuffer: 64 * 1024 * 1024,
      });
      fs.writeFileSync(path.join(out, "postgres.sql.gz"), execFileSync("gzip", ["-9n"], { input: dump }));
      execFileSync("tar", ["-czf", path.join(out, "postgres-files.tar.gz"), "-C", postgresDir, "."]);
    } finally {
      fs.rmSync(postgresDir, { recursive: true, force: true });
      psql(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    }
  }
  fs.writeFileSync(path.join(out, "fixture.json"), `${JSON.stringify({ ...facts, commit, sharePaths }, null, 2)}\n`);
  // In the repository's own format (the lint checks committed JSON too).
  execFileSync("npx", ["biome", "format", "--write", path.join(out, "fixture.json")], { stdio: "ignore" });
  fs.rmSync(path.join(checkout, "scripts/make-upgrade-fixture.ts"));
  console.log(`Fixture written to ${out}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Inside: in the old checkout, with its own code (only modules every fixture's version has are imported statically).

async function inside(factsFile: string) {
  const { parseEnv } = await import("#app/lib/env.server.ts");
  const { startRuntime, stopRuntime, getStorage, sqliteFileIn } = await import("#app/runtime/runtime.server.ts");
  const { openDatabase } = await import("#app/db/database.server.ts");
  const { createStorage } = await import("#app/runtime/storage-choice.server.ts");
  const { signUpWithInvite } = await import("#app/domains/users/users.server.ts");
  const { createInviteCodes } = await import("#app/domains/invites/invites.server.ts");
  const { createPost, setPostStatus } = await import("#app/domains/posts/post-admin.server.ts");
  const { storePostImage } = await import("#app/domains/posts/post-images.server.ts");
  const { createGalleryEntry } = await import("#app/domains/gallery/gallery-upload.server.ts");
  const { createGalleryPicture, testPhoto } = await import("#tests/support/gallery-factories.ts");
  const { holdImageQueue } = await import("#tests/support/image-queue.ts");
  const { watermarkText } = await import("#app/domains/media/image-watermarks.server.ts");
  const { readSettings } = await import("#app/domains/settings/settings.server.ts");

  const env = parseEnv();
  // The start an owner's server makes: migrations, default settings, the auth secret in DATA_DIR, the setup code.
  const { runtime, adminSetupCode } = await startRuntime(env);
  const db = runtime.database.db;
  const storage = getStorage();
  if (!adminSetupCode) throw new Error("A fresh site should offer an admin setup code");

  const admin = { email: "owner@example.com", password: "Upgrade-owner-7fq2Lm9x" };
  const member = { email: "member@example.com", password: "Upgrade-member-3kV8pZ1w" };
  const adminAccount = await signUpWithInvite(db, { ...admin, inviteCode: adminSetupCode });
  if (!adminAccount.isAdmin) throw new Error("The setup code did not make the first account an admin");
  const actor = { id: adminAccount.userId, email: adminAccount.email };
  const [invite] = await createInviteCodes(db);
  const memberAccount = await signUpWithInvite(db, { ...member, inviteCode: invite ?? "" });

  // Drawn as the admin's upload draws it (the settings' watermark, on by default): pictures made without it would be
  // redrawn at every start, and a page read meanwhile would name files the redraw has just replaced.
  const watermark = watermarkText(await readSettings(db));
  // Tiny pictures: the fixtures are committed, and the pipeline's sizes are never larger than the original.
  const pictures = ["Quiet harbour", "Red door", "Snow field"];
  const pictureIds: string[] = [];
  for (const [index, title] of pictures.entries()) {
    pictureIds.push(
      await createGalleryPicture(db, storage, {
        title,
        hue: 40 + index * 100,
        width: 64,
        height: 48,
        published: true,
        watermark,
      }),
    );
  }
  const coverFile = path.join(os.tmpdir(), `vitrine-fixture-cover-${randomBytes(4).toString("hex")}.jpg`);
  fs.writeFileSync(coverFile, await testPhoto({ width: 64, height: 48, hue: 300 }));
  const cover = await storePostImage(db, actor, coverFile, { originalName: "cover.jpg", watermark, storage });
  fs.rmSync(coverFile);

  async function post(title: string, slug: string, extra: Record<string, unknown> = {}) {
    const made = await createPost(db, actor, {
      title,
      slug,
      body: `# ${title}\n\nWritten by the old version.\n`,
      tags: "upgrade",
      ...extra,
    });
    if (!made.ok) throw new Error(`The post ${title} was refused: ${JSON.stringify(made)}`);
    return made.id;
  }
  async function status(id: string, change: Record<string, unknown>) {
    const changed = await setPostStatus(db, actor, id, change);
    if (!changed.ok) throw new Error(`The post's status was refused: ${JSON.stringify(changed)}`);
  }
  const publishedPost = { title: "Harbour at dawn", slug: "harbour-at-dawn" };
  const scheduledPost = { title: "Coming soon", slug: "coming-soon" };
  const draftPost = { title: "Half-written thoughts", slug: "half-written-thoughts" };
  await status(await post(publishedPost.title, publishedPost.slug, { cover_image_id: cover.id }), {
    status: "published",
  });
  await post(draftPost.title, draftPost.slug);

  // Members, groups, albums and share links (issue 21) where this version has them.
  const hasMembers = fs.existsSync(path.resolve("app/domains/groups/groups.server.ts"));
  const memberPosts: FixtureFacts["memberPosts"] = [];
  let album: FixtureFacts["album"] = null;
  let sharedPost: FixtureFacts["sharedPost"] = null;
  const sharePaths: Record<string, string> = {};
  if (hasMembers) {
    const { createGroup, setMembership } = await import("#app/domains/groups/groups.server.ts");
    const { createAlbum, addAlbumPictures } = await import("#app/domains/albums/albums.server.ts");
    const { albumFieldsSchema } = await import("#app/domains/albums/album-schema.ts");
    const { createShareLink } = await import("#app/domains/shares/share-links.server.ts");
    const group = await createGroup(db, actor, "Family");
    if (!group.ok) throw new Error(`The group was refused: ${JSON.stringify(group)}`);
    const groupRow = await db.selectFrom("member_groups").select("id").where("name", "=", "Family").executeTakeFirst();
    if (!groupRow) throw new Error("The group was not written");
    await setMembership(db, actor, { groupId: groupRow.id, userId: memberAccount.userId, member: true });
    const forMembers = { title: "For members only", slug: "for-members-only" };
    const forFamily = { title: "For the family", slug: "for-the-family" };
    memberPosts.push(forMembers, forFamily);
    await status(await post(forMembers.title, forMembers.slug, { visibility: "members" }), { status: "published" });
    const familyPost = await post(forFamily.title, forFamily.slug, {
      visibility: "groups",
      group_ids: groupRow.id,
    });
    await status(familyPost, { status: "published" });
    album = { title: "Seaside", slug: "seaside" };
    const made = await createAlbum(db, actor, albumFieldsSchema.parse({ ...album, visibility: "everyone" }));
    if (!made.ok) throw new Error(`The album was refused: ${JSON.stringify(made)}`);
    await addAlbumPictures(db, actor, made.id, pictureIds.slice(0, 2));
    const share = await createShareLink(db, actor, {
      kind: "post",
      itemId: familyPost,
      target: forFamily.title,
      fields: { expires_on: "", password: "" },
    });
    if (!share.ok) throw new Error(`The share link was refused: ${JSON.stringify(share)}`);
    sharePaths.site = share.path;
    sharedPost = forFamily;
  }

  // Scheduled last, a little ahead; the site is left only once it is due (below), so that the fixture always holds a
  // post whose time has come while no server ran, which the next start must publish.
  const dueAt = new Date(Date.now() + 3_000);
  await status(await post(scheduledPost.title, scheduledPost.slug), {
    status: "scheduled",
    publishAt: dueAt.toISOString(),
  });
  const schemaRow = await db
    .selectFrom("kysely_migration" as never)
    .select("name" as never)
    .orderBy("name" as never, "desc")
    .executeTakeFirstOrThrow();
  await stopRuntime();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt.getTime() - Date.now())));

  // A job in flight: a picture whose first size exists but whose other sizes the process had not made when it
  // stopped. The image queue is held, so the finishing never starts; the database is closed without a stop, as a
  // killed process leaves it (with durable jobs, a job held by a worker that is gone; before them, nothing queued).
  const database = openDatabase({ databaseUrl: env.databaseUrl, sqliteFile: sqliteFileIn(env.dataDir) });
  const scheduled = await database.db
    .selectFrom("posts")
    .select("status")
    .where("slug", "=", scheduledPost.slug)
    .executeTakeFirstOrThrow();
  if (scheduled.status !== "scheduled")
    throw new Error("The old server published the scheduled post before it stopped");
  holdImageQueue();
  const photoFile = path.join(os.tmpdir(), `vitrine-fixture-${randomBytes(4).toString("hex")}`);
  fs.mkdirSync(photoFile);
  const file = path.join(photoFile, "late-light.jpg");
  // Wider than the first size (320 pixels): a second size remains to be made.
  fs.writeFileSync(file, await testPhoto({ width: 400, height: 300, hue: 120 }));
  const lateId = await createGalleryEntry(database.db, actor, file, {
    originalName: "late-light.jpg",
    watermark,
    published: true,
    storage: createStorage(env, randomBytes(32).toString("base64url")),
  });
  fs.rmSync(photoFile, { recursive: true });
  const late = await database.db
    .selectFrom("gallery_images")
    .select("title")
    .where("id", "=", lateId)
    .executeTakeFirstOrThrow();
  await database.close();

  const facts: FixtureFacts = {
    commit: "",
    schemaVersion: (schemaRow as { name: string }).name,
    admin,
    member,
    pictures,
    inFlightPicture: late.title,
    publicPosts: [publishedPost, scheduledPost],
    scheduledPost,
    draftPost,
    memberPosts,
    album,
    sharedPost,
    sharePaths,
  };
  fs.writeFileSync(factsFile, JSON.stringify(facts));
  // The held queue and the stopped runtime's timers would keep the process alive.
  process.exit(0);
}

const insideFile = option("inside");
if (insideFile) {
  await inside(insideFile);
} else {
  const checkout = option("checkout");
  const name = option("name");
  if (!checkout || !name) {
    console.error("Usage: node scripts/make-upgrade-fixture.ts --checkout DIR --name NAME [--postgres URL]");
    process.exit(2);
  }
  outside(path.resolve(checkout), name, option("postgres"));
}
