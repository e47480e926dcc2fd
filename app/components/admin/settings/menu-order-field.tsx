import { ArrowDown, ArrowUp } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { TextField } from "#app/components/ui/field.tsx";
import { MENU_SECTION_IDS, type MenuSectionId, menuOrderOf } from "#app/domains/content/menu-sections.ts";
import type { MessageKey } from "#app/i18n/i18n.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { focusInList, moveButtonClass } from "../move-focus.ts";

/** The menu's own words for each section: the list reads as the header does. */
const SECTION_LABELS: Record<MenuSectionId, MessageKey> = {
  gallery: "nav.gallery",
  home: "nav.home",
  links: "nav.links",
  faq: "nav.faq",
  videos: "nav.videos",
  blog: "nav.blog",
  contact: "nav.contact",
  albums: "nav.albums",
};

/**
 * The setting `menu_order`: the menu's sections as a list with "up" and "down" buttons (each move announced to
 * screen readers, the focus kept on the moved section's button), posted as one hidden "gallery,home,…" field.
 * Without JavaScript the buttons cannot work: the page then shows a text field with the same value.
 */
export function MenuOrderField(props: {
  name: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const t = useAdminTranslate();
  const tNav = useTranslate();
  const [hydrated, setHydrated] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const focusAfterMove = useRef<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const id = useId();
  const order = menuOrderOf(props.value);

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!focusAfterMove.current) return;
    focusInList(listRef.current, focusAfterMove.current);
    focusAfterMove.current = null;
  });

  const hint = t("admin.settings.menuOrder.hint");
  if (!hydrated) {
    return (
      <TextField
        label={props.label}
        name={props.name}
        defaultValue={order.join(",")}
        hint={`${hint} ${t("admin.settings.menuOrder.textHint", { sections: MENU_SECTION_IDS.join(",") })}`}
        error={props.error}
      />
    );
  }

  const nameOf = (section: MenuSectionId) => tNav(SECTION_LABELS[section]);
  const move = (from: number, to: number) => {
    const section = order[from];
    if (!section || to < 0 || to >= order.length) return;
    const next = [...order];
    next.splice(from, 1);
    next.splice(to, 0, section);
    // At the list's end the pressed button is switched off: focusInList takes the other one, which still works.
    focusAfterMove.current = `${id}-${section}-${to < from ? "up" : "down"}`;
    setAnnouncement(`${nameOf(section)}: ${to + 1} / ${order.length}`);
    props.onChange(next.join(","));
  };

  const errorId = `${id}-error`;
  return (
    <fieldset aria-describedby={`${id}-hint${props.error ? ` ${errorId}` : ""}`}>
      <legend className="text-sm font-medium">{props.label}</legend>
      <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
        {hint}
      </p>
      <input type="hidden" name={props.name} value={order.join(",")} />
      <ol
        ref={listRef}
        aria-label={props.label}
        className="mt-2 max-w-sm divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-700"
      >
        {order.map((section, index) => {
          const name = nameOf(section);
          return (
            <li key={section} className="flex items-center gap-2 px-3 py-1.5">
              <span className="w-6 text-right text-sm tabular-nums text-zinc-600 dark:text-zinc-300">{index + 1}.</span>
              <span className="flex-1 text-sm font-medium">{name}</span>
              <button
                id={`${id}-${section}-up`}
                data-move="up"
                type="button"
                className={moveButtonClass}
                aria-label={t("admin.common.moveUp", { name })}
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
              >
                <ArrowUp aria-hidden="true" className="size-4" />
              </button>
              <button
                id={`${id}-${section}-down`}
                data-move="down"
                type="button"
                className={moveButtonClass}
                aria-label={t("admin.common.moveDown", { name })}
                disabled={index === order.length - 1}
                onClick={() => move(index, index + 1)}
              >
                <ArrowDown aria-hidden="true" className="size-4" />
              </button>
            </li>
          );
        })}
      </ol>
      {props.error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {props.error}
        </p>
      ) : null}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}
