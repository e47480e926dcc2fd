import { ArrowDown, ArrowDownToLine, ArrowUp, ArrowUpToLine, GripVertical } from "lucide-react";
import { type DragEvent as ReactDragEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** How close to the window's top or bottom edge (px) a drag scrolls the page, and how fast at the edge (px per frame). */
const SCROLL_EDGE_PX = 80;
const SCROLL_MAX_STEP_PX = 24;

/**
 * While something is dragged, scrolls the window when the pointer is near its top or bottom edge (faster the
 * closer it is), so that an item can be dragged to any place of a list longer than the screen.
 */
function useScrollWhileDragging(active: boolean) {
  useEffect(() => {
    if (!active) return;
    let pointerY: number | null = null;
    let frame = 0;
    const onDragOver = (event: DragEvent) => {
      pointerY = event.clientY;
    };
    const step = () => {
      if (pointerY !== null) {
        const fromTop = pointerY;
        const fromBottom = window.innerHeight - pointerY;
        const speed = (distance: number) =>
          Math.ceil(((SCROLL_EDGE_PX - distance) / SCROLL_EDGE_PX) * SCROLL_MAX_STEP_PX);
        if (fromTop < SCROLL_EDGE_PX) window.scrollBy(0, -speed(Math.max(0, fromTop)));
        else if (fromBottom < SCROLL_EDGE_PX) window.scrollBy(0, speed(Math.max(0, fromBottom)));
      }
      frame = requestAnimationFrame(step);
    };
    document.addEventListener("dragover", onDragOver);
    frame = requestAnimationFrame(step);
    return () => {
      document.removeEventListener("dragover", onDragOver);
      cancelAnimationFrame(frame);
    };
  }, [active]);
}

const moveButtonClass =
  "rounded-md p-1.5 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:text-zinc-200 dark:hover:bg-zinc-800";

/**
 * A list that is reordered by dragging an item's handle (a line shows where it lands, the window scrolls near its
 * edges, and the new order is saved once, when the item is dropped), or from the keyboard with each
 * item's "move to the top", "up", "down" and "move to the bottom" buttons. `onReorder` receives every id in the
 * new order.
 */
export function SortableList<T extends { id: string }>(props: {
  items: T[];
  /** The item's name, for the buttons' labels and the announcement. */
  nameOf: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  onReorder: (ids: string[]) => void;
  /** An accessible name for the list. */
  label: string;
}) {
  const t = useAdminTranslate();
  const [order, setOrder] = useState(props.items);
  /** The id of the item being dragged, and of the item it would be dropped on. */
  const [dragged, setDragged] = useState<string | null>(null);
  // The same id, set within dragstart itself: the rows' drop checks read it, so that a drop does not depend on
  // React having rendered the drag's state yet (a quick drag on a busy page).
  const draggedNow = useRef<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const focusAfterMove = useRef<string | null>(null);

  useEffect(() => setOrder(props.items), [props.items]);
  useScrollWhileDragging(dragged !== null);

  useEffect(() => {
    if (!focusAfterMove.current) return;
    document.getElementById(focusAfterMove.current)?.focus();
    focusAfterMove.current = null;
  });

  const commit = (next: T[], item: T) => {
    setOrder(next);
    setAnnouncement(`${props.nameOf(item)}: ${next.indexOf(item) + 1} / ${next.length}`);
    props.onReorder(next.map((entry) => entry.id));
  };

  const move = (from: number, to: number, buttonId: string, fallbackId: string) => {
    const item = order[from];
    if (!item || to < 0 || to >= order.length || to === from) return;
    // The button pressed is disabled at the list's end: the focus goes to its twin that still works.
    focusAfterMove.current = to === 0 || to === order.length - 1 ? fallbackId : buttonId;
    commit(moved(order, from, to), item);
  };

  /**
   * Ends a drag on the item at `to`: the new order is saved once, however many items the drag passed over. (The
   * items do not move while dragging: Chromium ends a drag whose dragged element is moved in the page.)
   */
  const finishDrag = (to: number) => {
    const from = order.findIndex((entry) => entry.id === draggedNow.current);
    draggedNow.current = null;
    setDragged(null);
    setOver(null);
    const item = order[from];
    if (item && from !== to) commit(moved(order, from, to), item);
  };
  const draggedIndex = order.findIndex((entry) => entry.id === dragged);
  const acceptDrop = (event: ReactDragEvent, id: string) => {
    if (draggedNow.current === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    if (over !== id) setOver(id);
  };

  return (
    <>
      <ul
        aria-label={props.label}
        className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {order.map((item, index) => {
          const name = props.nameOf(item);
          const ids = {
            top: `move-top-${item.id}`,
            up: `move-up-${item.id}`,
            down: `move-down-${item.id}`,
            bottom: `move-bottom-${item.id}`,
          };
          const first = index === 0;
          const last = index === order.length - 1;
          return (
            <li
              key={item.id}
              data-id={item.id}
              // Both accept the drop: Chromium takes the operation from the dragenter when the pointer has just
              // entered an element of the row, so a drop released then would be refused if only dragover did.
              onDragEnter={(event) => acceptDrop(event, item.id)}
              onDragOver={(event) => acceptDrop(event, item.id)}
              onDrop={(event) => {
                if (draggedNow.current === null) return;
                event.preventDefault();
                finishDrag(index);
              }}
              // On a phone the move buttons take a line of their own, so the item's text keeps the width.
              className={`flex flex-wrap items-center gap-x-3 gap-y-2 p-3 sm:flex-nowrap ${dragged === item.id ? "opacity-50" : ""} ${
                // Where the dragged item would land: a line above or below this item.
                over === item.id && dragged !== item.id
                  ? index < draggedIndex
                    ? "shadow-[inset_0_3px_0_0_var(--color-indigo-600)]"
                    : "shadow-[inset_0_-3px_0_0_var(--color-indigo-600)]"
                  : ""
              }`}
            >
              <span
                draggable
                role="img"
                aria-label={t("admin.common.dragHandle", { name })}
                onDragStart={(event) => {
                  draggedNow.current = item.id;
                  setDragged(item.id);
                  event.dataTransfer.effectAllowed = "move";
                  event.dataTransfer.setData("text/plain", item.id);
                }}
                onDragEnd={() => {
                  // Dropped outside the list, or cancelled with Escape: nothing changes.
                  draggedNow.current = null;
                  setDragged(null);
                  setOver(null);
                }}
                className="cursor-grab text-zinc-500 active:cursor-grabbing dark:text-zinc-400"
              >
                <GripVertical aria-hidden="true" className="size-5" />
              </span>
              <div className="min-w-0 flex-1 basis-[calc(100%-2rem)] sm:basis-0">{props.renderItem(item)}</div>
              <div className="ml-auto flex shrink-0 gap-1">
                <button
                  id={ids.top}
                  type="button"
                  disabled={first}
                  onClick={() => move(index, 0, ids.top, ids.down)}
                  aria-label={t("admin.common.moveTop", { name })}
                  className={moveButtonClass}
                >
                  <ArrowUpToLine aria-hidden="true" className="size-4" />
                </button>
                <button
                  id={ids.up}
                  type="button"
                  disabled={first}
                  onClick={() => move(index, index - 1, ids.up, ids.down)}
                  aria-label={t("admin.common.moveUp", { name })}
                  className={moveButtonClass}
                >
                  <ArrowUp aria-hidden="true" className="size-4" />
                </button>
                <button
                  id={ids.down}
                  type="button"
                  disabled={last}
                  onClick={() => move(index, index + 1, ids.down, ids.up)}
                  aria-label={t("admin.common.moveDown", { name })}
                  className={moveButtonClass}
                >
                  <ArrowDown aria-hidden="true" className="size-4" />
                </button>
                <button
                  id={ids.bottom}
                  type="button"
                  disabled={last}
                  onClick={() => move(index, order.length - 1, ids.bottom, ids.up)}
                  aria-label={t("admin.common.moveBottom", { name })}
                  className={moveButtonClass}
                >
                  <ArrowDownToLine aria-hidden="true" className="size-4" />
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </>
  );
}
