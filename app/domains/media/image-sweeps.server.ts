import fsp from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { toBoolean } from "#app/db/values.ts";
import { IMAGE_PREFIX, ORIGINAL_PREFIX } from "./image-encode.server.ts";
import { keysOf } from "./image-rows.server.ts";
import { MEMBER_PREFIX } from "./member-files.server.ts";
import type { FileStorage } from "./storage.server.ts";

/** A start-up sweep's grace period, and the storage and clock it runs on (the site's and the present by default). */
export type SweepOptions = { olderThanMs: number; storage: FileStorage; now?: number };

/**
 * Removes files under `prefix` that no key in `referenced` names and that are older than the grace period,
 * except those under one of `sparedPrefixes` (work in progress).
 */
export async function sweepUnreferenced(
  prefix: string,
  referenced: Set<string>,
  options: SweepOptions & { sparedPrefixes?: string[] },
): Promise<string[]> {
  const { olderThanMs } = options;
  const storage = options.storage;
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  const pageSize = 1000;
  const orphans: string[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await storage.list(prefix, { limit: pageSize, offset });
    for (const file of page) {
      if (referenced.has(file.key) || now - file.modifiedAt.getTime() <= olderThanMs) continue;
      if (options.sparedPrefixes?.some((spared) => file.key.startsWith(spared))) continue;
      orphans.push(file.key);
    }
    if (page.length < pageSize) break;
  }
  for (const key of orphans) {
    await storage.remove(key);
    removed.push(key);
  }
  return removed;
}

async function removeOldFiles(directory: string, olderThanMs: number, now: number): Promise<number> {
  let count = 0;
  const entries = await fsp.readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(directory, entry.name);
    const info = await fsp.stat(file).catch(() => null);
    if (info && now - info.mtimeMs > olderThanMs) {
      await fsp.rm(file, { force: true });
      count++;
    }
  }
  return count;
}

/**
 * Removes the image pipeline's files that no `images` row references (left by an interrupted upload or
 * a crash between deleting a row and its files), once they are older than `olderThanMs` so uploads in
 * flight are spared, and so are the files of images not ready yet; also old temp files in `tempDirs`.
 * Runs at start-up (server/app.ts).
 */
export async function sweepOrphanFiles(
  db: Kysely<Database>,
  options: SweepOptions & { tempDirs?: string[] },
): Promise<{ removed: string[]; tempFilesRemoved: number }> {
  const storage = options.storage;
  const now = options.now ?? Date.now();
  const rows = await db.selectFrom("images").select(["id", "original_key", "variants", "ready"]).execute();
  const referenced = new Set(rows.flatMap(keysOf));
  // A restricted video's file shares its member folder with its poster's sizes (videos/video-access.server.ts).
  const videoFiles = await db
    .selectFrom("videos")
    .select("file_key")
    .where("file_key", "like", `${MEMBER_PREFIX}%`)
    .execute();
  for (const video of videoFiles) if (video.file_key) referenced.add(video.file_key);
  // An image not ready yet is being finished (or will be, by finishPendingImages at the same start-up),
  // which may reuse files an interrupted run left under its folder: they are not orphans.
  const sparedPrefixes = rows.filter((row) => !toBoolean(row.ready)).map((row) => `${IMAGE_PREFIX}${row.id}/`);
  const removed = [
    ...(await sweepUnreferenced(IMAGE_PREFIX, referenced, {
      olderThanMs: options.olderThanMs,
      storage,
      now,
      sparedPrefixes,
    })),
    ...(await sweepUnreferenced(ORIGINAL_PREFIX, referenced, { olderThanMs: options.olderThanMs, storage, now })),
    // Restricted pictures' and videos' files (member-files.server.ts): a move interrupted between its copy and its record.
    ...(await sweepUnreferenced(MEMBER_PREFIX, referenced, { olderThanMs: options.olderThanMs, storage, now })),
  ];
  let tempFilesRemoved = 0;
  for (const directory of options.tempDirs ?? []) {
    tempFilesRemoved += await removeOldFiles(directory, options.olderThanMs, now);
  }
  return { removed, tempFilesRemoved };
}
