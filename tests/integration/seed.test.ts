import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, request, run, type ServerProcess, startServer } from "#tests/support/server-process.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

describe.each(databaseKinds)("npm run seed (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await server?.stop();
    await database.destroy();
  });

  const seed = () =>
    run(
      "npm",
      ["run", "seed"],
      cleanEnv({ DATA_DIR: database.location.dataDir, DATABASE_URL: database.location.databaseUrl }),
      120_000,
    );

  it("adds the two accounts and sample content that the running site shows, and only once", async () => {
    const first = await seed();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Admin: admin@example\.com \/ \S+/);
    expect(first.stdout).toContain("Sample content: 6 pictures, 3 links, 2 questions, 1 video.");

    server = await startServer({ dataDir: database.location.dataDir, databaseUrl: database.location.databaseUrl });
    const gallery = (await request(server.url("/"))).body;
    expect(gallery).toContain("Morning fog");
    const picture = gallery.match(/src="(\/media\/[^"]+\.jpg)"/)?.[1];
    expect(picture).toBeDefined();
    expect((await request(server.url(picture ?? ""))).status).toBe(200);
    expect((await request(server.url("/links"))).body).toContain("My code");
    expect((await request(server.url("/faq?lang=de"))).body).toContain("Darf ich Ihre Bilder verwenden?");

    const second = await seed();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("admin@example.com exists already");
    expect(second.stdout).toContain("no sample content added");
    const pictures = await database.db.selectFrom("gallery_images").select("id").execute();
    expect(pictures).toHaveLength(6);
  }, 240_000);
});
