import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toIsoString } from "#app/db/values.ts";

/**
 * What a job's last successful run answered (`JobResult`, kept by `completeJob` in `jobs.result`), and when; null
 * before any run answered. The caller checks the shape: the row is JSON written by another version, perhaps.
 */
export async function lastJobResult(db: Kysely<Database>, id: string): Promise<{ result: unknown; at: string } | null> {
  const row = await db.selectFrom("jobs").select(["result", "result_at"]).where("id", "=", id).executeTakeFirst();
  if (!row?.result || !row.result_at) return null;
  try {
    return { result: JSON.parse(row.result) as unknown, at: toIsoString(row.result_at) };
  } catch {
    return null;
  }
}
