import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type express from "express";
import { sql } from "kysely";
import { getLogger } from "#app/lib/logger.server.ts";
import type { Runtime } from "#app/runtime/runtime.server.ts";

/** A check that has not answered by then counts as failed: a hung database must not hang the prober too. */
const CHECK_TIMEOUT_MS = 3_000;

type CheckResult = "ok" | "failed";

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** One round trip to the database (a read of a real table, so a missing or broken file shows too). */
async function checkDatabase(runtime: Runtime): Promise<void> {
  await withTimeout(sql`select count(*) from kysely_migration`.execute(runtime.database.db), "The database");
}

/** Writes, reads back and removes a small file where the data lives: the data folder and the uploads' folder. */
async function checkStorage(runtime: Runtime): Promise<void> {
  const folders = [runtime.env.dataDir, path.join(runtime.env.dataDir, "storage")];
  await withTimeout(
    Promise.all(
      folders.map(async (folder) => {
        const probe = path.join(folder, `.ready-${process.pid}-${randomBytes(4).toString("hex")}`);
        try {
          // The uploads' folder is made with the first upload; a folder that cannot be made fails here too.
          await fs.mkdir(folder, { recursive: true });
          await fs.writeFile(probe, "ok");
          await fs.readFile(probe);
        } finally {
          await fs.rm(probe, { force: true }).catch(() => {});
        }
      }),
    ),
    "The storage",
  );
}

async function run(name: string, check: () => Promise<void>): Promise<CheckResult> {
  try {
    await check();
    return "ok";
  } catch (error) {
    // What failed, without a stack: a prober asks every few seconds while the outage lasts.
    getLogger().warn({ check: name, reason: error instanceof Error ? error.message : String(error) }, "not ready");
    return "failed";
  }
}

function answer(res: express.Response, status: number, body: unknown) {
  res.status(status).set("Cache-Control", "no-store").json(body);
}

/**
 * `GET /healthz`: the process is alive and answering. `GET /readyz`: it can serve, i.e. the database answers
 * and the storage is writable (503 naming the failed check otherwise). Neither needs a session or says more.
 */
export function healthHandler(runtime: () => Runtime): express.RequestHandler {
  return async (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.path === "/healthz") return answer(res, 200, { status: "ok" });
    if (req.path !== "/readyz") return next();
    const current = runtime();
    const [database, storage] = await Promise.all([
      run("database", () => checkDatabase(current)),
      run("storage", () => checkStorage(current)),
    ]);
    const ready = database === "ok" && storage === "ok";
    answer(res, ready ? 200 : 503, { status: ready ? "ok" : "unavailable", checks: { database, storage } });
  };
}
