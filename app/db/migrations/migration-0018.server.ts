import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { DatabaseKind } from "../database.server.ts";
import { columnTypes } from "./migration-support.server.ts";

/**
 * Background work as rows (issue 20, "Outgrow one machine"): every piece of work the server does besides answering
 * requests (an upload's sizes, watermark redraws, publishing scheduled posts, scheduled backups, sweeps) is a job
 * that any process on the database may claim, exactly one at a time, under a lease (app/domains/jobs/).
 *
 * - A recurring job is one row under a fixed id ("every:<name>") that goes back to `queued` with its next
 *   `run_at` after each run, so that however many processes start, there is one of it.
 * - `dedupe_key` keeps one queued job per key (a second upload's "finish image X" or a second watermark change
 *   while one waits adds nothing: the waiting one reads the current state when it runs); the claim also leaves a
 *   key alone while a job of that key runs, so two redraws never race each other.
 * - No trigger and no change notification: change-areas.ts maps the table to no area, so a claim every second
 *   never drops the page cache. Never edit a migration that has shipped: add a new one.
 */
export function migration0018(kind: DatabaseKind): Record<string, Migration> {
  const t = columnTypes(kind);
  return {
    "0018_jobs": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("jobs")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("kind", "text", (c) => c.notNull())
          .addColumn("lane", "text", (c) => c.notNull())
          .addColumn("payload", "text", (c) => c.notNull())
          .addColumn("dedupe_key", "text")
          .addColumn("state", "text", (c) => c.notNull())
          .addColumn("run_at", t.timestamp, (c) => c.notNull())
          .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("max_attempts", "integer", (c) => c.notNull())
          .addColumn("locked_by", "text")
          .addColumn("locked_until", t.timestamp)
          .addColumn("last_error", "text")
          .addColumn("created_at", t.timestamp, (c) => c.notNull())
          .addColumn("updated_at", t.timestamp, (c) => c.notNull())
          .addColumn("finished_at", t.timestamp)
          .execute();
        // What a claim looks for: the due queued jobs of a lane, and the running ones whose lease ran out.
        await db.schema.createIndex("jobs_claim_idx").on("jobs").columns(["lane", "state", "run_at"]).execute();
        await db.schema.createIndex("jobs_lease_idx").on("jobs").columns(["state", "locked_until"]).execute();
        await sql`CREATE UNIQUE INDEX jobs_queued_dedupe_idx ON jobs (dedupe_key) WHERE state = 'queued'`.execute(db);
        await db.schema.createIndex("jobs_dedupe_idx").on("jobs").column("dedupe_key").execute();
        await db.schema.createIndex("jobs_finished_idx").on("jobs").column("finished_at").execute();
      },
    },
  };
}
