import { LRUCache } from "lru-cache";
import type { ChangeArea } from "./change-areas.ts";
import { changeVersionOf } from "./database.server.ts";

/** Keys kept per database; beyond this the oldest goes (keys are few: settings, gallery order per category). */
const MAX_ENTRIES = 256;

type Entry = {
  version: number;
  /** What the value shows; undefined: everything. */
  areas: readonly ChangeArea[] | undefined;
  compute: () => Promise<unknown>;
  value: Promise<unknown>;
  /** Once the value is there: it as JSON, made when a page first depends on it (see keptStamp). */
  settled?: { value: unknown; json?: string };
};

const caches = new WeakMap<object, LRUCache<string, Entry>>();

function cacheOf(db: object): LRUCache<string, Entry> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache({ max: MAX_ENTRIES });
    caches.set(db, cache);
  }
  return cache;
}

function keep(db: object, key: string, version: number, areas: Entry["areas"], compute: () => Promise<unknown>) {
  const cache = cacheOf(db);
  const value = compute();
  const stored: Entry = { version, areas, compute, value };
  cache.set(key, stored);
  value.then(
    (settled) => {
      stored.settled = { value: settled };
    },
    () => {
      if (cache.peek(key) === stored) cache.delete(key);
    },
  );
  return value;
}

/**
 * What `compute` reads from `db`, kept until the database's change version of `areas` moves (a write through
 * this process to one of their tables, or a commit by another: see `AppDatabase.changeVersion`). Left out,
 * `areas` means every area: be conservative, a value that shows an area it does not name is served stale. The
 * version is taken before computing, so a write landing meanwhile only makes the next call compute again, never
 * keeps stale data under the new version. A failure is not kept. A transaction (or a database without a version)
 * always computes afresh.
 */
export function cachedUntilChanged<T>(
  db: object,
  key: string,
  compute: () => Promise<T>,
  areas?: readonly ChangeArea[],
): Promise<T> {
  const version = changeVersionOf(db, areas);
  if (version === undefined) return compute();
  const entry = cacheOf(db).get(key);
  if (entry && entry.version === version) return entry.value as Promise<T>;
  return keep(db, key, version, areas, compute) as Promise<T>;
}

/**
 * What a kept thing (a page) depends on: the areas it shows directly (undefined: everything), and kept values
 * (by their key in cachedUntilChanged) it shows something of. A value dependency is finer than its areas: the
 * menu that every page shows reads the FAQ, but only whether one entry is published, so a page depends on the
 * menu's value and a new FAQ entry that leaves the menu as it was leaves the page kept.
 */
export type KeptDependencies = { areas?: readonly ChangeArea[]; values?: readonly string[] };

/**
 * A stamp of what `dependencies` stand for now: equal stamps, equal content. Null when it cannot be told at once:
 * a value it names was never computed, is being computed, or is out of date (one of its areas moved; settleKept
 * computes it again). Never null for dependencies without values, on a database with a change version.
 */
export function keptStamp(db: object, dependencies: KeptDependencies): string | null {
  const version = changeVersionOf(db, dependencies.areas);
  if (version === undefined) return null;
  let stamp = String(version);
  for (const key of dependencies.values ?? []) {
    // get, not peek: the value every page names stays among the recently used.
    const entry = cacheOf(db).get(key);
    if (!entry?.settled || entry.version !== changeVersionOf(db, entry.areas)) return null;
    entry.settled.json ??= JSON.stringify(entry.settled.value) ?? "";
    stamp += `\u0000${key}=${entry.settled.json}`;
  }
  return stamp;
}

/**
 * Brings the kept values `dependencies` names up to date (each computed once however many callers wait), so that
 * keptStamp can tell. A value never computed stays unknown: it is computed by whatever reads it.
 */
export async function settleKept(db: object, dependencies: KeptDependencies): Promise<void> {
  await Promise.all(
    (dependencies.values ?? []).map((key) => {
      const entry = cacheOf(db).peek(key);
      return entry ? cachedUntilChanged(db, key, entry.compute, entry.areas).catch(() => {}) : undefined;
    }),
  );
}
