import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type express from "express";
import { sql } from "kysely";
import { isS3Storage, type S3FileStorage } from "#app/domains/media/bucket-storage.server.ts";
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

/** Writes, reads back and removes a small file in each folder. */
async function checkFolders(folders: string[]): Promise<void> {
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

/** How long the bucket may take to answer a probe's HeadBucket: a prober waits for the whole answer. */
const BUCKET_CHECK_TIMEOUT_MS = 2_000;
/** How long one answer of the bucket stands: a load balancer probing every second asks the bucket every 5 s. */
const BUCKET_CHECK_KEPT_MS = 5_000;

/** The last HeadBucket of each bucket storage (an answer in progress is shared by the probes that wait for it). */
const keptBucketChecks = new WeakMap<S3FileStorage, { until: number; problem: Promise<string | null> }>();

async function checkBucket(storage: S3FileStorage): Promise<void> {
  const now = Date.now();
  let kept = keptBucketChecks.get(storage);
  if (!kept || now >= kept.until) {
    kept = { until: now + BUCKET_CHECK_KEPT_MS, problem: storage.problem(BUCKET_CHECK_TIMEOUT_MS) };
    keptBucketChecks.set(storage, kept);
  }
  const problem = await kept.problem;
  if (problem) throw new Error(`The bucket of STORAGE_URL: ${problem}`);
}

/**
 * Where the data lives can be written: the data folder (the database file, uploads on their way in, the outbox)
 * and the files' storage: its folder on the disk, or the bucket of STORAGE_URL, which must answer.
 */
async function checkStorage(runtime: Runtime): Promise<void> {
  const { storage, env } = runtime;
  if (isS3Storage(storage)) {
    await Promise.all([checkFolders([env.dataDir]), checkBucket(storage)]);
    return;
  }
  await checkFolders([env.dataDir, path.join(env.dataDir, "storage")]);
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
 * and the storage is writable, or its bucket answers (503 naming the failed check otherwise; why it failed goes
 * to the log, as the answer is anyone's to read). Neither needs a session or says more.
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
