import { type FileStorage, StorageError, type StoredFile } from "./storage.server.ts";

const AREAS = ["public/", "private/"] as const;
/** The most `list` answers at once (pageBounds). */
const PAGE = 10_000;
/**
 * Pages overlap by this many files: a file removed while the listing goes on moves the later ones one place
 * forward, and without the overlap the first of them would fall between two pages.
 */
const OVERLAP = 1_000;

/**
 * Every stored file (both areas), by key ascending. `list` answers by offset, at most 10,000 at a time; the pages
 * overlap and are joined by key, so files added or removed meanwhile neither repeat nor push another out of the
 * listing (unless more than a thousand go between two pages, which is noticed and that page asked again).
 */
export async function listAllFiles(storage: FileStorage): Promise<StoredFile[]> {
  const found: StoredFile[] = [];
  for (const area of AREAS) {
    let offset = 0;
    let lastKey = "";
    let retries = 0;
    for (;;) {
      const page = await storage.list(area, { limit: PAGE, offset });
      const first = page[0];
      if (offset > 0 && first && first.key > lastKey) {
        // More files went than the overlap covers: some may lie before this page. Step back and ask again.
        if (++retries > 20) throw new Error(`The files under ${area} changed too fast to be listed; try again`);
        offset = Math.max(0, offset - PAGE);
        continue;
      }
      for (const file of page) {
        if (file.key > lastKey) {
          found.push(file);
          lastKey = file.key;
        }
      }
      if (page.length < PAGE) break;
      offset += PAGE - OVERLAP;
    }
  }
  return found;
}

export type CopyProgress = {
  /** Files handled so far (copied, already there, gone or failed) of `total`. */
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
};

export type CopyFailure = { key: string; reason: string };

export type CopySummary = {
  total: number;
  copied: number;
  bytesCopied: number;
  /** Already in the target with the same size (an earlier run's). */
  alreadyThere: number;
  /** Listed, then removed from the source before they were read (the site deleted them meanwhile). */
  gone: number;
  failed: CopyFailure[];
  /** Why the copy stopped before the end (too many failures in a row), or null when it went through the list. */
  stopped: string | null;
};

export type CopyOptions = {
  from: FileStorage;
  to: FileStorage;
  /** Called once the source is listed, before the first file is copied. */
  onListed?: (files: { total: number; bytes: number }) => void;
  /** Called after each file. */
  onProgress?: (progress: CopyProgress) => void;
  /** This many failures in a row end the copy (the target is unreachable, say) rather than trying every file. */
  stopAfterFailuresInARow?: number;
};

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? "").slice(0, 300) || (error as Error)?.name || "unknown error";
}

/**
 * Copies every file of one storage into another, through the FileStorage contract (so the target's driver sets
 * what it keeps with a file: in a bucket the Content-Type and Cache-Control of its key). A file already in the
 * target with the same size is left alone, so that a copy cut short is finished by running it again; one of another
 * size is replaced (the source is what is being moved). Each copy is checked by its size in the target against the
 * source's. The source is only read: nothing is removed from it.
 */
export async function copyAllFiles(options: CopyOptions): Promise<CopySummary> {
  const { from, to } = options;
  const stopAfter = options.stopAfterFailuresInARow ?? 10;
  const files = await listAllFiles(from);
  const summary: CopySummary = {
    total: files.length,
    copied: 0,
    bytesCopied: 0,
    alreadyThere: 0,
    gone: 0,
    failed: [],
    stopped: null,
  };
  const bytesTotal = files.reduce((sum, file) => sum + file.size, 0);
  options.onListed?.({ total: files.length, bytes: bytesTotal });
  let bytesDone = 0;
  let failuresInARow = 0;
  for (const [index, file] of files.entries()) {
    try {
      const there = await to.stat(file.key);
      if (there && there.size === file.size) summary.alreadyThere++;
      else {
        const source = await from.readStream(file.key).catch((error: unknown) => {
          if (error instanceof StorageError && error.code === "not_found") return null;
          throw error;
        });
        if (!source) summary.gone++;
        else {
          const stored = await to.save(file.key, source, { overwrite: there !== null });
          // The size now, not the listed one: a file replaced since the listing is copied as it is now.
          const now = await from.stat(file.key);
          if (now && stored.size !== now.size) {
            throw new Error(`the copy has ${stored.size} bytes, the file ${now.size}`);
          }
          summary.copied++;
          summary.bytesCopied += stored.size;
        }
      }
      failuresInARow = 0;
    } catch (error) {
      summary.failed.push({ key: file.key, reason: reasonOf(error) });
      failuresInARow++;
    }
    bytesDone += file.size;
    options.onProgress?.({ done: index + 1, total: files.length, bytesDone, bytesTotal });
    if (failuresInARow >= stopAfter) {
      summary.stopped = `${failuresInARow} files in a row could not be copied`;
      break;
    }
  }
  return summary;
}
