import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, type DatabaseKind, openDatabase } from "#app/db/database.server.ts";
import { migrationState, siteMigrations } from "#app/db/migrations.server.ts";
import { verifyBackup } from "#app/domains/backup/archive-reader.server.ts";
import { defaultBackupDir, listBackups } from "#app/domains/backup/schedule.server.ts";
import { visibleText } from "#tests/support/admin-server.ts";
import { mediaAddresses, type OldSite, startOnOldSite, upgradeFixtureNames } from "#tests/support/old-site.ts";
import { noteSecret } from "#tests/support/secret-ledger.ts";
import { cleanEnv, cookiePair, postForm, request, run, sessionCookie } from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/*
 * Issue 42: an owner who updates after a long time jumps many migrations at once, on rows old code wrote. Each fixture
 * is a small site made by an older version's own code (scripts/make-upgrade-fixture.ts says which and how); today's
 * server starts on it, once per fixture and database, and every check below reads that one running site.
 */

const latest = (kind: DatabaseKind) => Object.keys(siteMigrations(kind)).sort();

/** Polls until `check` answers something truthy (the server's background work is under way), or fails. */
async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function postStatus(database: AppDatabase, slug: string) {
  const row = await database.db.selectFrom("posts").select("status").where("slug", "=", slug).executeTakeFirst();
  return row?.status;
}

describe.each(databaseKinds)("on %s", (kind) => {
  describe.each(upgradeFixtureNames())("a site made by %s", (name) => {
    let site: OldSite;
    const page = (pathname: string, cookie?: string) =>
      request(site.server.url(pathname), { headers: cookie ? { Cookie: cookie } : {} });

    beforeAll(async () => {
      site = await startOnOldSite(name, kind);
      noteSecret(site.facts.admin.password);
      noteSecret(site.facts.member.password);
    });
    afterAll(async () => {
      expect(await site?.stop()).toBe(0);
    });

    it("starts on the current schema, after a backup when there was anything to upgrade", async () => {
      const state = await migrationState(site.database.db, kind);
      expect(state).toEqual({ applied: latest(kind), pending: [] });
      expect((await page("/readyz")).status).toBe(200);

      const backups = await listBackups(defaultBackupDir(site.dataDir));
      const upgraded = site.facts.schemaVersion !== latest(kind).at(-1);
      // A site of today's version has nothing to upgrade: its fixture waits for the next migration to land.
      expect(backups.map((file) => file.kind)).toEqual(upgraded ? ["pre-migration"] : []);
    });

    it("serves every page the old site had, and every file they refer to", async () => {
      const gallery = await page("/");
      expect(gallery.status).toBe(200);
      // The gallery's titles are in its pictures' data (the lightbox's), not in the page's text.
      for (const title of site.facts.pictures) expect(gallery.body).toContain(title);

      const blog = visibleText((await page("/blog")).body);
      for (const post of site.facts.publicPosts) expect(blog).toContain(post.title);
      expect(blog).not.toContain(site.facts.draftPost.title);
      for (const post of site.facts.memberPosts) expect(blog).not.toContain(post.title);

      const pages = [gallery];
      for (const post of site.facts.publicPosts) {
        const answer = await page(`/blog/${post.slug}`);
        expect(answer.status, post.slug).toBe(200);
        expect(visibleText(answer.body)).toContain(post.title);
        pages.push(answer);
      }
      expect((await page(`/blog/${site.facts.draftPost.slug}`)).status).toBe(404);
      for (const post of site.facts.memberPosts) {
        const answer = await page(`/blog/${post.slug}`);
        expect(answer.status, post.slug).toBe(404);
        expect(answer.body).not.toContain(post.title);
      }
      if (site.facts.album) {
        const album = await page(`/albums/${site.facts.album.slug}`);
        expect(album.status).toBe(200);
        expect(visibleText(album.body)).toContain(site.facts.album.title);
        expect(visibleText((await page("/albums")).body)).toContain(site.facts.album.title);
        pages.push(album);
      }
      const sharePath = site.facts.sharePaths[kind];
      if (sharePath) {
        // A share link made by the old version still opens its post, without an account.
        const shared = await page(sharePath);
        expect(shared.status).toBe(200);
        expect(visibleText(shared.body)).toContain(site.facts.sharedPost?.title);
      }

      const files = pages.flatMap((answer) => mediaAddresses(answer.body));
      // The pictures' sizes (three formats each) and the post's cover, at least.
      expect(files.length).toBeGreaterThanOrEqual(3 * site.facts.pictures.length);
      for (const file of new Set(files)) {
        const answer = await page(file);
        expect(answer.status, file).toBe(200);
        expect(answer.headers["content-type"], file).toMatch(/^image\//);
      }
    });

    it("signs the old accounts in with their passwords, each with what is theirs", async () => {
      const { admin, member } = site.facts;
      const wrong = await postForm(site.server, "/auth", {
        intent: "sign-in",
        email: member.email,
        password: `${member.password}-not`,
      });
      expect(wrong.status).toBe(400);
      expect(sessionCookie(wrong)).toBeUndefined();

      const signIn = async (account: { email: string; password: string }) => {
        const answer = await postForm(site.server, "/auth", { intent: "sign-in", ...account });
        expect(answer.status, account.email).toBe(302);
        const cookie = sessionCookie(answer);
        expect(cookie, account.email).toBeDefined();
        return cookiePair(cookie ?? "");
      };
      const memberCookie = await signIn(member);
      for (const post of site.facts.memberPosts) {
        const answer = await page(`/blog/${post.slug}`, memberCookie);
        expect(answer.status, post.slug).toBe(200);
        expect(visibleText(answer.body)).toContain(post.title);
      }
      expect((await page("/admin", memberCookie)).status).toBe(403);

      const adminCookie = await signIn(admin);
      const posts = await page("/admin/posts", adminCookie);
      expect(posts.status).toBe(200);
      expect(visibleText(posts.body)).toContain(site.facts.draftPost.title);
    });

    it("finishes the work the old process left: the picture's sizes, the scheduled post", async () => {
      const late = await eventually("the picture whose sizes were under way", async () => {
        const row = await site.database.db
          .selectFrom("gallery_images")
          .innerJoin("images", "images.id", "gallery_images.image_id")
          .select(["images.ready", "images.variants"])
          .where("gallery_images.title", "=", site.facts.inFlightPicture)
          .executeTakeFirst();
        return row && Boolean(row.ready) && row;
      });
      // The size the old process never made (400 pixels wide) exists now, and its job is not left hanging.
      expect(String(late.variants)).toContain('"width":400');
      const unfinished = await site.database.db
        .selectFrom("jobs")
        .select(["kind", "state"])
        .where("kind", "=", "image.finish")
        .where("state", "not in", ["done"])
        .execute();
      expect(unfinished).toEqual([]);
      const gallery = await eventually("the picture in the gallery", async () => {
        const answer = await page("/");
        return answer.body.includes(site.facts.inFlightPicture) && answer;
      });
      for (const file of mediaAddresses(gallery.body)) expect((await page(file)).status, file).toBe(200);

      // Scheduled by the old version, due since: the scheduler's job has published it.
      const scheduled = site.facts.scheduledPost.slug;
      await eventually(
        "the scheduled post published",
        async () => (await postStatus(site.database, scheduled)) === "published",
      );
    });

    it("restores the backup taken before the upgrade into an empty place, with the old site's rows", async ({
      skip,
    }) => {
      const [backup] = await listBackups(defaultBackupDir(site.dataDir));
      if (!backup) skip("today's version: no migration ran, so no backup was taken");
      const file = backup?.file ?? "";
      expect((await verifyBackup(file)).schema.version).toBe(site.facts.schemaVersion);

      let target: Pick<TestDatabase, "location" | "destroy">;
      if (kind === "postgres") {
        const empty = await createTestDatabase("postgres", { migrate: false });
        await empty.close();
        target = empty;
      } else {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-restored-"));
        target = { location: { dataDir }, destroy: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
      }
      const restoredAt = target.location;
      let restored: AppDatabase | undefined;
      try {
        const result = await run(
          "npm",
          ["run", "cli", "--", "restore", file],
          cleanEnv({ DATA_DIR: restoredAt.dataDir, DATABASE_URL: restoredAt.databaseUrl }),
          120_000,
        );
        expect(result.code, result.stderr).toBe(0);
        restored = openDatabase({
          databaseUrl: restoredAt.databaseUrl,
          sqliteFile: path.join(restoredAt.dataDir, "vitrine.sqlite"),
        });
        // The accounts with their password hashes, the posts, the pictures and their files: as the old site had them.
        const accounts = (db: AppDatabase) =>
          db.db
            .selectFrom("user")
            .innerJoin("account", "account.userId", "user.id")
            .select(["user.email", "account.password"])
            .orderBy("user.email")
            .execute();
        expect(await accounts(restored)).toEqual(await accounts(site.database));
        const titles = async (db: AppDatabase) => ({
          posts: (await db.db.selectFrom("posts").select("title").orderBy("title").execute()).map((row) => row.title),
          pictures: (await db.db.selectFrom("gallery_images").select("title").orderBy("title").execute()).map(
            (row) => row.title,
          ),
        });
        const old = await titles(restored);
        expect(old.posts).toEqual((await titles(site.database)).posts);
        expect(old.pictures).toEqual([...site.facts.pictures, site.facts.inFlightPicture].sort());
        const images = await restored.db.selectFrom("images").select(["original_key"]).execute();
        for (const image of images) {
          expect(fs.existsSync(path.join(restoredAt.dataDir, "storage", image.original_key)), image.original_key).toBe(
            true,
          );
        }
      } finally {
        await restored?.close();
        await target.destroy();
      }
    });
  });
});
