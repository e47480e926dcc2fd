import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/database.server.ts";
import { sqliteFileIn } from "#app/runtime/runtime.server.ts";
import { ROOT } from "#tests/support/server-process.ts";
import { type BeforeSide, beforeLabelOf, compareWithBefore, runChild } from "./before-build.ts";
import { siteRows } from "./site-rows.ts";

const temp = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-before-build-"));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

describe("--before's data folder, made by the checkout's own code (this checkout standing in for another)", () => {
  it("is seeded with the gallery grown to the asked size and a signed-in member, and gets the bench's post", async () => {
    const dataDir = path.join(temp, "seed");
    const authSecret = "before-build-test-secret-0123456789abcdef";
    const seeded = await runChild(ROOT, temp, { step: "seed", dataDir, realPictures: 2, small: 30, authSecret });
    const posted = await runChild(ROOT, temp, {
      step: "post",
      dataDir,
      post: { title: "Above the lake", body: "A walk.", tags: "walks" },
    });
    expect(posted.postPath).toBe("/blog/above-the-lake");
    const database = openDatabase({ sqliteFile: sqliteFileIn(dataDir) });
    try {
      const pictures = await database.db
        .selectFrom("gallery_images")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(pictures.n)).toBe(30);
      // The member's cookie names a session of the account made for it.
      const token = decodeURIComponent(seeded.memberCookie?.split("=")[1] ?? "").split(".")[0] ?? "";
      const member = await database.db
        .selectFrom("session")
        .innerJoin("user", "user.id", "session.userId")
        .select(["user.email"])
        .where("session.token", "=", token)
        .executeTakeFirst();
      expect(member?.email).toBe("bench-member@example.test");
      expect(seeded.adminCookie).toMatch(/session_token=/);
    } finally {
      await database.close();
    }
  }, 120_000);

  it("names the revision it measures, and refuses a folder without a build", () => {
    expect(beforeLabelOf(ROOT)).toMatch(/^[0-9a-f]{7,}(\+changes)?$/);
    expect(() => beforeLabelOf(temp)).toThrow(/server\.js is missing/);
  });
});

describe("compareWithBefore", () => {
  const values = (series: Record<string, number[]>) => (name: string) => series[name] ?? [];
  const input = {
    hasWrk: true,
    hasNginx: true,
    small: 50,
    large: 10_010,
    scalingPaths: [{ name: "/", small: "/", large: "/" }],
    idleAfterMs: 15_000,
    uploadSize: { width: 4240, height: 2832 },
    lighthouse: null,
  };
  const figures = {
    "app / c10": [900],
    "nginx / c10": [2000],
    "app/nginx /": [0.45],
    "rss idle": [120],
    "time / small": [3],
    "time / large": [3.3],
    "scaling /": [1.1],
  };

  it("pairs each figure both builds measured, with each one's verdict, and leaves out what the earlier one did not", () => {
    const series = {
      ...figures,
      "before app / c10": [600],
      "before nginx / c10": [2000],
      "before app/nginx /": [0.3],
      "before rss idle": [200],
    };
    const after = siteRows({ ...input, values: values(series) });
    const compared = compareWithBefore({ label: "abc1234" } as BeforeSide, after, { ...input, values: values(series) });
    expect(compared.label).toBe("abc1234");
    const byFigure = new Map(compared.rows.map((row) => [row.figure.split(",")[0], row]));
    const cachedRow = byFigure.get("Anonymous `/`");
    expect(cachedRow?.before.measured).toMatch(/^0\.300 /);
    expect(cachedRow?.after.measured).toMatch(/^0\.450 /);
    expect([cachedRow?.before.verdict, cachedRow?.after.verdict]).toEqual(["MISSES goal", "MISSES goal"]);
    const idle = compared.rows.find((row) => row.figure.startsWith("Process memory (RSS) idle"));
    expect([idle?.before.measured, idle?.after.measured]).toEqual(["200 MB", "120 MB"]);
    // The scaling was measured on this build only.
    expect(compared.rows.some((row) => row.figure.includes("server time"))).toBe(false);
    expect(after.some((row) => row.figure.includes("server time"))).toBe(true);
  });
});
