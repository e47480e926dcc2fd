/*
 * The move buttons of the admin's reorderable lists (sortable-list.tsx: gallery, albums, links, FAQ, videos; and the
 * menu's order in the settings, menu-order-field.tsx): one look, and one rule for where the focus goes after a move.
 */

export const moveButtonClass =
  "rounded-md p-1.5 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:text-zinc-200 dark:hover:bg-zinc-800";

/** A move button's direction, its `data-move`. */
type MoveWay = "top" | "up" | "down" | "bottom";

/** Which button stands in for a move button switched off at the list's end: the same item's other direction. */
const TWIN: Record<MoveWay, MoveWay> = { top: "down", up: "down", down: "up", bottom: "up" };

/**
 * Focuses the element with `id` in `list`. A move button switched off (its item is now first or last) hands the focus
 * to its twin in the same row, which still works, so that a keyboard user stays on the item.
 */
export function focusInList(list: HTMLElement | null, id: string): void {
  const target = document.getElementById(id);
  if (!target || !list?.contains(target)) return;
  if (!(target instanceof HTMLButtonElement && target.disabled)) {
    target.focus();
    return;
  }
  const way = target.dataset.move as MoveWay | undefined;
  const twin = way ? target.closest("li")?.querySelector<HTMLButtonElement>(`button[data-move="${TWIN[way]}"]`) : null;
  if (twin && !twin.disabled) twin.focus();
}
