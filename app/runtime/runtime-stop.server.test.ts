import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { runInImageQueue } from "#app/domains/media/image-queue.server.ts";
import { parseEnv } from "#app/lib/env.server.ts";
import { TEST_AUTH_SECRET } from "#tests/support/server-process.ts";
import { startRuntime, stopRuntime } from "./runtime.server.ts";

const folders: string[] = [];

afterEach(async () => {
  await stopRuntime();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

async function startInFolder() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-runtime-stop-"));
  folders.push(folder);
  return (await startRuntime(parseEnv({ DATA_DIR: folder, AUTH_SECRET: TEST_AUTH_SECRET }))).runtime;
}

describe("stopping the runtime", () => {
  it("lets the image work under way (an upload's remaining sizes) end before the database closes", async () => {
    const runtime = await startInFolder();
    const db = runtime.database.db;
    const steps: string[] = [];
    // As an upload's finishing does: sharp works for a while, then the database is read and written.
    const work = runInImageQueue(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await sql`select 1`.execute(db);
      steps.push("image work wrote");
    });
    await stopRuntime();
    steps.push("stopped");
    // Before: the database closed under the work ("driver has already been destroyed", logged as an error).
    await expect(work).resolves.toBeUndefined();
    expect(steps).toEqual(["image work wrote", "stopped"]);
  });
});
