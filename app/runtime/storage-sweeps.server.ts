import path from "node:path";
import type { Kysely } from "kysely";
import { isDatabaseUnreachable } from "#app/db/database.server.ts";
import type { Database } from "#app/db/schema.ts";
import { sweepOrphanFiles } from "#app/domains/media/image-sweeps.server.ts";
import type { FileStorage } from "#app/domains/media/storage.server.ts";
import type { StorageSweepCounts } from "#app/domains/media/storage-sweep-report.server.ts";
import { uploadTempDir } from "#app/domains/media/upload.server.ts";
import { sweepOrphanSiteImages } from "#app/domains/settings/site-images.server.ts";
import { sweepOrphanVideoFiles } from "#app/domains/videos/videos.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { logBackgroundFailure } from "./background-failure.server.ts";

/** Files younger than this may belong to an upload still in flight. */
const GRACE_MS = 60 * 60 * 1000;

/**
 * Removes what an interrupted upload or a crash left behind: stored files that no row or setting names,
 * and stale temp files. One area after the other, in the background; a failure is logged, never thrown.
 * Answers what it removed (the dashboard shows the last sweep's counts; an area that failed counts nothing).
 */
export async function sweepStorage(
  db: Kysely<Database>,
  env: Pick<Env, "dataDir">,
  storage: FileStorage,
): Promise<StorageSweepCounts> {
  const sweeps: [string, () => Promise<StorageSweepCounts>][] = [
    [
      "media files and temp files",
      async () => {
        const { removed, tempFilesRemoved } = await sweepOrphanFiles(db, {
          olderThanMs: GRACE_MS,
          storage,
          tempDirs: [uploadTempDir(env.dataDir), path.join(env.dataDir, "storage", ".tmp")],
        });
        return { orphans: removed.length, tempFiles: tempFilesRemoved };
      },
    ],
    [
      "video files",
      async () => ({
        orphans: (await sweepOrphanVideoFiles(db, { olderThanMs: GRACE_MS, storage })).length,
        tempFiles: 0,
      }),
    ],
    [
      "site image files",
      async () => ({
        orphans: (await sweepOrphanSiteImages(db, { olderThanMs: GRACE_MS, storage })).length,
        tempFiles: 0,
      }),
    ],
  ];
  const total: StorageSweepCounts = { orphans: 0, tempFiles: 0 };
  for (const [what, sweep] of sweeps) {
    try {
      const { orphans, tempFiles } = await sweep();
      total.orphans += orphans;
      total.tempFiles += tempFiles;
      if (orphans + tempFiles > 0) getLogger().info(`Removed ${orphans + tempFiles} unreferenced ${what}.`);
    } catch (error) {
      // The database away (restarting, stopping) is said in one line and the next run sweeps again; since the sweep
      // also runs at each start it met a PostgreSQL restart in CI and logged a stack as an error.
      if (isDatabaseUnreachable(error))
        logBackgroundFailure(getLogger(), `Sweeping unreferenced ${what} failed`, error);
      else getLogger().error({ err: error }, `Sweeping unreferenced ${what} failed`);
    }
  }
  return total;
}
