import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { recurringJobId } from "#app/domains/jobs/job-queue.server.ts";
import { lastJobResult } from "#app/domains/jobs/job-results.server.ts";

/** The recurring job that clears unreferenced stored files and stale temp files (app/runtime/storage-sweeps). */
export const STORAGE_SWEEP_JOB = "sweep.storage";

/** What one sweep removed: stored files no row or setting names, and stale temporary upload files. */
const sweepCounts = z.object({ orphans: z.number().int().min(0), tempFiles: z.number().int().min(0) });
export type StorageSweepCounts = z.infer<typeof sweepCounts>;

/** The last sweep's counts and when it ended, for the admin's dashboard; null before the first (or a stray shape). */
export async function lastStorageSweep(db: Kysely<Database>): Promise<(StorageSweepCounts & { at: string }) | null> {
  const last = await lastJobResult(db, recurringJobId(STORAGE_SWEEP_JOB));
  const counts = sweepCounts.safeParse(last?.result);
  return last && counts.success ? { ...counts.data, at: last.at } : null;
}
