/**
 * How a reorder is recorded: by the item that moved, named by its title at the time, with its place before and
 * after (`"3/12"` → `"1/12"`), so the log can say "moved “Alpine lake” to the top". A reorder that moved several
 * items records the titles in their new order instead. Never the ids: they mean nothing to a reader.
 */
export type MoveRecord = { target: string; oldValue: string | null; newValue: string };

/** The place of the item as stored: 1-based position and the list's length. */
export function formatPlace(position: number, total: number): string {
  return `${position}/${total}`;
}

export function parsePlace(value: string | null): { position: number; total: number } | null {
  const match = value?.match(/^(\d+)\/(\d+)$/);
  if (!match) return null;
  return { position: Number(match[1]), total: Number(match[2]) };
}

function without(list: readonly string[], id: string): string[] {
  return list.filter((other) => other !== id);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

/**
 * The one item whose move turns `before` into `after`, or null when none or several did. Where two items swapped
 * places, `movedId` (when the caller knows which one the admin moved) decides; else the one that went up.
 */
export function findMovedItem(before: readonly string[], after: readonly string[], movedId?: string): string | null {
  if (before.length !== after.length || sameList(before, after)) return null;
  const candidates = after.filter((id) => sameList(without(before, id), without(after, id)));
  if (candidates.length === 0) return null;
  if (movedId && candidates.includes(movedId)) return movedId;
  const rise = (id: string) => before.indexOf(id) - after.indexOf(id);
  return [...candidates].sort((a, b) => Math.abs(rise(b)) - Math.abs(rise(a)) || rise(b) - rise(a))[0] ?? null;
}

/** What a reorder from `before` to `after` records; `titleOf` names an item by its title at the time. */
export function describeReorder(
  before: readonly string[],
  after: readonly string[],
  titleOf: (id: string) => string,
  movedId?: string,
): MoveRecord {
  const moved = findMovedItem(before, after, movedId);
  if (moved) {
    return {
      target: titleOf(moved),
      oldValue: formatPlace(before.indexOf(moved) + 1, before.length),
      newValue: formatPlace(after.indexOf(moved) + 1, after.length),
    };
  }
  return { target: "", oldValue: null, newValue: after.map(titleOf).join("\n") };
}
