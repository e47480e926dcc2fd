import fsp from "node:fs/promises";
import path from "node:path";
import { type MigrationSet, migrateToLatest, migrationState, siteMigrations } from "#app/db/migrations.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { type BackupResult, type BackupSource, createBackup, makePrivateDir } from "./backup.server.ts";

/** Scheduled archives are `vitrine-backup-<UTC time>.tar.gz`; those taken before an upgrade `vitrine-pre-migration-…`. */
const ARCHIVE_NAME = /^vitrine-(backup|pre-migration)-(\d{8}T\d{6}Z)(-\d+)?\.tar\.gz$/;

export type BackupKind = "backup" | "pre-migration";
export type BackupFile = {
  file: string;
  name: string;
  kind: BackupKind;
  size: number;
  createdAt: Date;
  /** Tells apart archives made within one second (`-1`, `-2`… after the time). */
  sequence: number;
};

const newestFirst = (a: BackupFile, b: BackupFile) =>
  b.createdAt.getTime() - a.createdAt.getTime() || b.sequence - a.sequence;

/** The folder for backups the site takes by itself when BACKUP_DIR is not set (before a migration, downloads). */
export function defaultBackupDir(dataDir: string): string {
  return path.join(dataDir, "backups");
}

function timestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
}

/**
 * A name in `dir` for an archive of this kind made now. Archives of the same second are numbered after the
 * highest number there, not into the first free one: a gap left by pruning would otherwise give a newer
 * archive an older-looking name (and the same name as one made before).
 */
async function freshArchivePath(dir: string, kind: BackupKind, now = new Date()): Promise<string> {
  const base = `vitrine-${kind}-${timestamp(now)}`;
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  let next = 0;
  for (const name of names) {
    const match = ARCHIVE_NAME.exec(name);
    if (!match || !name.startsWith(base)) continue;
    next = Math.max(next, (match[3] ? Number(match[3].slice(1)) : 0) + 1);
  }
  return path.join(dir, `${base}${next === 0 ? "" : `-${next}`}.tar.gz`);
}

/** The archives in `dir`, newest first (by the time in their name). */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const found: BackupFile[] = [];
  for (const name of names) {
    const match = ARCHIVE_NAME.exec(name);
    if (!match) continue;
    const stamp = match[2] ?? "";
    const createdAt = new Date(
      `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
    );
    try {
      const info = await fsp.stat(path.join(dir, name));
      if (!info.isFile()) continue;
      const sequence = match[3] ? Number(match[3].slice(1)) : 0;
      found.push({
        file: path.join(dir, name),
        name,
        kind: match[1] as BackupKind,
        size: info.size,
        createdAt,
        sequence,
      });
    } catch {
      // removed meanwhile
    }
  }
  return found.sort(newestFirst);
}

/** Removes scheduled archives beyond the newest `keep` (pre-migration ones and other files are left alone). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const scheduled = (await listBackups(dir)).filter((backup) => backup.kind === "backup");
  const removed = scheduled.slice(keep);
  for (const backup of removed) await fsp.rm(backup.file, { force: true });
  return removed.map((backup) => backup.file);
}

/** The newest archive in any of the folders, or null. */
export async function lastBackup(dirs: readonly (string | undefined)[]): Promise<BackupFile | null> {
  const all = (await Promise.all([...new Set(dirs.filter((dir) => dir !== undefined))].map(listBackups))).flat();
  all.sort(newestFirst);
  return all[0] ?? null;
}

/** Takes one scheduled backup into `dir` and keeps only the newest `keep`. */
export async function runScheduledBackup(
  source: BackupSource,
  options: { dir: string; keep: number },
): Promise<BackupResult> {
  await makePrivateDir(options.dir);
  const result = await createBackup(source, await freshArchivePath(options.dir, "backup"));
  await pruneBackups(options.dir, options.keep);
  return result;
}

/** A backup made for downloading: written in DATA_DIR/backups under a name the schedule never lists. */
export async function createDownloadBackup(source: BackupSource): Promise<BackupResult> {
  const dir = defaultBackupDir(source.dataDir);
  await makePrivateDir(dir);
  const name = `.download-${timestamp(new Date())}-${process.pid}-${Math.random().toString(36).slice(2)}.tar.gz`;
  return createBackup(source, path.join(dir, name));
}

/**
 * Backs up into `dir` every `intervalMs`: the first as soon as the newest archive there is that old (at once
 * for a folder without any). Failures are logged and retried at the next turn. Returns a stop function.
 */
export function startBackupSchedule(
  source: BackupSource,
  options: { dir: string; keep: number; intervalMs: number },
  logger: Pick<Logger, "info" | "error">,
): () => void {
  let running = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(run, Math.max(0, delay));
    timer.unref?.();
  };
  const run = async () => {
    if (running || stopped) return;
    running = true;
    try {
      const result = await runScheduledBackup(source, options);
      logger.info({ file: result.file, bytes: result.size }, "Backup written");
    } catch (error) {
      logger.error({ err: error }, "Scheduled backup failed");
    } finally {
      running = false;
      schedule(options.intervalMs);
    }
  };
  void (async () => {
    const newest = (await listBackups(options.dir)).find((backup) => backup.kind === "backup");
    const age = newest ? Date.now() - newest.createdAt.getTime() : Number.POSITIVE_INFINITY;
    schedule(options.intervalMs - age);
  })();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Migrates the database to the newest schema; when it already holds data of an older one, a backup (the database
 * and the files of `source.storage`) goes into DATA_DIR/backups first, so that an upgrade gone wrong can be undone.
 * Returns that backup's path, if any.
 */
export async function migrateWithBackup(
  source: BackupSource,
  migrations: MigrationSet = siteMigrations,
): Promise<string | null> {
  const { database, dataDir } = source;
  const { applied, pending } = await migrationState(database.db, database.kind, migrations);
  let backupFile: string | null = null;
  if (applied.length > 0 && pending.length > 0) {
    const dir = defaultBackupDir(dataDir);
    await makePrivateDir(dir);
    const result = await createBackup(source, await freshArchivePath(dir, "pre-migration"));
    backupFile = result.file;
  }
  await migrateToLatest(database.db, database.kind, migrations);
  return backupFile;
}
