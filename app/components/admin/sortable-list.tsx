import { ArrowDown, ArrowUp, GripVertical } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * A list that is reordered by dragging an item's handle, or from the keyboard with its
 * "move up" and "move down" buttons. `onReorder` receives every id in the new order.
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
  const [dragged, setDragged] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const focusAfterMove = useRef<string | null>(null);

  useEffect(() => setOrder(props.items), [props.items]);

  useEffect(() => {
    if (!focusAfterMove.current) return;
    document.getElementById(focusAfterMove.current)?.focus();
    focusAfterMove.current = null;
  });

  const commit = (next: T[], item: T, position: number) => {
    setOrder(next);
    setAnnouncement(`${props.nameOf(item)}: ${position + 1} / ${next.length}`);
    props.onReorder(next.map((entry) => entry.id));
  };

  const move = (from: number, to: number, buttonId: string) => {
    const item = order[from];
    if (!item || to < 0 || to >= order.length) return;
    focusAfterMove.current = buttonId;
    commit(moved(order, from, to), item, to);
  };

  return (
    <>
      <ul
        aria-label={props.label}
        className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {order.map((item, index) => {
          const name = props.nameOf(item);
          const upId = `move-up-${item.id}`;
          const downId = `move-down-${item.id}`;
          return (
            <li
              key={item.id}
              data-id={item.id}
              onDragOver={(event) => {
                if (dragged === null) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = "move";
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (dragged === null || dragged === index) return;
                const item = order[dragged];
                if (item) commit(moved(order, dragged, index), item, index);
                setDragged(null);
              }}
              className={`flex items-center gap-3 p-3 ${dragged === index ? "opacity-50" : ""}`}
            >
              <span
                draggable
                role="img"
                aria-label={t("admin.common.dragHandle", { name })}
                onDragStart={(event) => {
                  setDragged(index);
                  event.dataTransfer.effectAllowed = "move";
                  event.dataTransfer.setData("text/plain", item.id);
                }}
                onDragEnd={() => setDragged(null)}
                className="cursor-grab text-zinc-500 active:cursor-grabbing dark:text-zinc-400"
              >
                <GripVertical aria-hidden="true" className="size-5" />
              </span>
              <div className="min-w-0 flex-1">{props.renderItem(item)}</div>
              <div className="flex shrink-0 gap-1">
                <button
                  id={upId}
                  type="button"
                  disabled={index === 0}
                  onClick={() => move(index, index - 1, upId)}
                  aria-label={t("admin.common.moveUp", { name })}
                  className="rounded-md p-1.5 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:text-zinc-200 dark:hover:bg-zinc-800"
                >
                  <ArrowUp aria-hidden="true" className="size-4" />
                </button>
                <button
                  id={downId}
                  type="button"
                  disabled={index === order.length - 1}
                  onClick={() => move(index, index + 1, downId)}
                  aria-label={t("admin.common.moveDown", { name })}
                  className="rounded-md p-1.5 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:text-zinc-200 dark:hover:bg-zinc-800"
                >
                  <ArrowDown aria-hidden="true" className="size-4" />
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
