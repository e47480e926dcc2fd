import { LRUCache } from "lru-cache";
import { changeVersionOf } from "./database.server.ts";

/** Keys kept per database; beyond this the oldest goes (keys are few: settings, gallery order per category). */
const MAX_ENTRIES = 256;

type Entry = { version: number; value: Promise<unknown> };

const caches = new WeakMap<object, LRUCache<string, Entry>>();

/**
 * What `compute` reads from `db`, kept until the database's change version moves (any write through this
 * process, or a commit by another: see `AppDatabase.changeVersion`). The version is taken before computing, so
 * a write landing meanwhile only makes the next call compute again, never keeps stale data under the new
 * version. A failure is not kept. A transaction (or a database without a version) always computes afresh.
 */
export function cachedUntilChanged<T>(db: object, key: string, compute: () => Promise<T>): Promise<T> {
  const version = changeVersionOf(db);
  if (version === undefined) return compute();
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache({ max: MAX_ENTRIES });
    caches.set(db, cache);
  }
  const entry = cache.get(key);
  if (entry && entry.version === version) return entry.value as Promise<T>;
  const value = compute();
  const stored: Entry = { version, value };
  cache.set(key, stored);
  value.catch(() => {
    if (cache.peek(key) === stored) cache.delete(key);
  });
  return value;
}
