import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * What a job's last successful run answered, and when (issue 42): the storage sweep's counts of orphaned files and
 * stale temporary upload files, which the admin's dashboard shows. A recurring job keeps one row, so its result is
 * always its latest run's. `finished_at` is not reused: a recurring job that fails is listed by the time of its
 * failure. Never edit a migration that has shipped: add a new one.
 */
export function migration0031(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0031_job_results": {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable("jobs").addColumn("result", "text").execute();
        await db.schema.alterTable("jobs").addColumn("result_at", t.timestamp).execute();
      },
    },
  };
}
