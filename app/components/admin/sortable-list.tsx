import { ArrowDown, ArrowDownToLine, ArrowUp, ArrowUpToLine, GripVertical } from "lucide-react";
import {
  type ReactNode,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { focusInList, moveButtonClass } from "./move-focus.ts";

function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** How close to the window's top or bottom edge (px) a drag scrolls the page, and how fast at the edge (px per frame). */
const SCROLL_EDGE_PX = 80;
const SCROLL_MAX_STEP_PX = 24;

type Point = { x: number; y: number };

/**
 * While an item is dragged, scrolls the window when the pointer is near its top or bottom edge (faster the closer
 * it is), so that an item can be dragged to any place of a list longer than the screen; `onScrolled` runs after
 * each step, as the row under a pointer held still changes with the page. Escape calls `onCancel`.
 */
function useWhileDragging(
  active: boolean,
  pointer: RefObject<Point | null>,
  handlers: { onScrolled: () => void; onCancel: () => void },
) {
  const onScrolled = useEffectEvent(handlers.onScrolled);
  const onCancel = useEffectEvent(handlers.onCancel);
  useEffect(() => {
    if (!active) return;
    let frame = 0;
    const step = () => {
      const pointerY = pointer.current?.y;
      if (pointerY !== undefined) {
        const fromTop = pointerY;
        const fromBottom = window.innerHeight - pointerY;
        const speed = (distance: number) =>
          Math.ceil(((SCROLL_EDGE_PX - distance) / SCROLL_EDGE_PX) * SCROLL_MAX_STEP_PX);
        const before = window.scrollY;
        if (fromTop < SCROLL_EDGE_PX) window.scrollBy(0, -speed(Math.max(0, fromTop)));
        else if (fromBottom < SCROLL_EDGE_PX) window.scrollBy(0, speed(Math.max(0, fromBottom)));
        if (window.scrollY !== before) onScrolled();
      }
      frame = requestAnimationFrame(step);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") onCancel();
    };
    document.addEventListener("keydown", onKeyDown);
    frame = requestAnimationFrame(step);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      cancelAnimationFrame(frame);
    };
  }, [active, pointer]);
}

/** The id of the row of `list` at a point of the window, if there is one. */
function rowAt(list: HTMLElement | null, point: Point): string | null {
  const row = document.elementFromPoint(point.x, point.y)?.closest<HTMLElement>("li[data-id]");
  return row && list?.contains(row) ? (row.dataset.id ?? null) : null;
}

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
  // The same id, set within pointerdown itself: the pointer's handlers read it, so that a drop does not depend on
  // React having rendered the drag's state yet (a quick drag on a busy page).
  const draggedNow = useRef<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const pointer = useRef<Point | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [announcement, setAnnouncement] = useState("");
  const focusAfterMove = useRef<string | null>(null);

  useEffect(() => setOrder(props.items), [props.items]);
  useWhileDragging(dragged !== null, pointer, {
    onScrolled: () => {
      if (pointer.current) setOver(rowAt(listRef.current, pointer.current));
    },
    onCancel: () => endDrag(),
  });

  useEffect(() => {
    if (!focusAfterMove.current) return;
    focusInList(listRef.current, focusAfterMove.current);
    focusAfterMove.current = null;
  });

  // The list's order may change again after a move (the save's answer, another admin's change read live): React
  // then moves rows in the page, and a moved row's focused button loses the focus, or its item landed at an end and
  // the button is switched off. The focus is given back to that item, but only when nothing else has it (the person
  // did not go elsewhere meanwhile).
  const lastFocused = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the order (the rows' places) changes
  useLayoutEffect(() => {
    const id = lastFocused.current;
    const active = document.activeElement;
    const switchedOff = active instanceof HTMLButtonElement && active.id === id && active.disabled;
    if (!id || (active && active !== document.body && !switchedOff)) return;
    focusInList(listRef.current, id);
  }, [order]);

  const commit = (next: T[], item: T) => {
    setOrder(next);
    setAnnouncement(`${props.nameOf(item)}: ${next.indexOf(item) + 1} / ${next.length}`);
    props.onReorder(next.map((entry) => entry.id));
  };

  const move = (from: number, to: number, buttonId: string) => {
    const item = order[from];
    if (!item || to < 0 || to >= order.length || to === from) return;
    // Where the item lands at the list's end, the button pressed is switched off: focusInList takes its twin.
    focusAfterMove.current = buttonId;
    commit(moved(order, from, to), item);
  };

  const endDrag = () => {
    draggedNow.current = null;
    pointer.current = null;
    setDragged(null);
    setOver(null);
  };
  /**
   * The drag follows the pointer (mouse, pen or finger) held on an item's handle, captured by the handle: plain
   * pointer events, so a finger on a phone drags too, and the drop is decided by where the pointer is let go,
   * also when the page scrolled under a pointer held still. The items do not move while dragging; the new order
   * is saved once, on release, however many rows the drag passed over.
   */
  const handleProps = (item: T) => ({
    onPointerDown: (event: ReactPointerEvent<HTMLElement>) => {
      if (event.button !== 0 || draggedNow.current !== null) return;
      // No text selection, no scrolling by touch while the handle is held.
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      draggedNow.current = item.id;
      pointer.current = { x: event.clientX, y: event.clientY };
      setDragged(item.id);
    },
    onPointerMove: (event: ReactPointerEvent<HTMLElement>) => {
      if (draggedNow.current === null) return;
      pointer.current = { x: event.clientX, y: event.clientY };
      const target = rowAt(listRef.current, pointer.current);
      if (target !== over) setOver(target);
    },
    onPointerUp: (event: ReactPointerEvent<HTMLElement>) => {
      const id = draggedNow.current;
      if (id === null) return;
      const target = rowAt(listRef.current, { x: event.clientX, y: event.clientY });
      endDrag();
      const from = order.findIndex((entry) => entry.id === id);
      const to = order.findIndex((entry) => entry.id === target);
      const moving = order[from];
      // Let go outside the list, or where it started: nothing changes.
      if (moving && to !== -1 && from !== to) commit(moved(order, from, to), moving);
    },
    // The browser took the pointer away (a system gesture): nothing changes.
    onPointerCancel: () => endDrag(),
  });
  const draggedIndex = order.findIndex((entry) => entry.id === dragged);

  return (
    <>
      <ul
        ref={listRef}
        onFocus={(event) => {
          lastFocused.current = event.target.id || null;
        }}
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
                role="img"
                aria-label={t("admin.common.dragHandle", { name })}
                {...handleProps(item)}
                className="cursor-grab touch-none text-zinc-500 active:cursor-grabbing dark:text-zinc-400"
              >
                <GripVertical aria-hidden="true" className="size-5" />
              </span>
              <div className="min-w-0 flex-1 basis-[calc(100%-2rem)] sm:basis-0">{props.renderItem(item)}</div>
              <div className="ml-auto flex shrink-0 gap-1">
                <button
                  id={ids.top}
                  data-move="top"
                  type="button"
                  disabled={first}
                  onClick={() => move(index, 0, ids.top)}
                  aria-label={t("admin.common.moveTop", { name })}
                  className={moveButtonClass}
                >
                  <ArrowUpToLine aria-hidden="true" className="size-4" />
                </button>
                <button
                  id={ids.up}
                  data-move="up"
                  type="button"
                  disabled={first}
                  onClick={() => move(index, index - 1, ids.up)}
                  aria-label={t("admin.common.moveUp", { name })}
                  className={moveButtonClass}
                >
                  <ArrowUp aria-hidden="true" className="size-4" />
                </button>
                <button
                  id={ids.down}
                  data-move="down"
                  type="button"
                  disabled={last}
                  onClick={() => move(index, index + 1, ids.down)}
                  aria-label={t("admin.common.moveDown", { name })}
                  className={moveButtonClass}
                >
                  <ArrowDown aria-hidden="true" className="size-4" />
                </button>
                <button
                  id={ids.bottom}
                  data-move="bottom"
                  type="button"
                  disabled={last}
                  onClick={() => move(index, order.length - 1, ids.bottom)}
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
