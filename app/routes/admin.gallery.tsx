import { Eye, EyeOff, Tag, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { GalleryBulkAccess } from "#app/components/admin/gallery-bulk-access.tsx";
import { type Category, CategoryOptions, GalleryEditor, nameOf } from "#app/components/admin/gallery-editor.tsx";
import { GalleryUploader } from "#app/components/admin/gallery-uploader.tsx";
import { EditDeleteActions } from "#app/components/admin/row-actions.tsx";
import { SortableList } from "#app/components/admin/sortable-list.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import type { AdminGalleryItem } from "#app/domains/gallery/gallery.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import type { Route } from "./+types/admin.gallery";
import { galleryAction, galleryLoader } from "./admin.gallery.server.ts";

const GALLERY_UPLOAD_URL = "/admin/uploads/gallery";

export function loader({ url, context }: Route.LoaderArgs) {
  return galleryLoader({ url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return galleryAction({ request, url, context });
}

function GalleryRow({
  item,
  categories,
  groups,
  selected,
  onSelect,
}: {
  item: AdminGalleryItem;
  categories: Category[];
  groups: { id: string; name: string }[];
  selected: boolean;
  onSelect: (selected: boolean) => void;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.data, t("admin.common.error"));
  const [editing, setEditing] = useState(false);
  const name = nameOf(item, t("admin.common.untitled"));
  const busy = fetcher.state !== "idle";
  const category = [item.category, item.categoryDe].filter(Boolean).join(" / ");

  return (
    <div>
      <div className="flex flex-wrap items-center gap-3">
        <input
          type="checkbox"
          checked={selected}
          onChange={(event) => onSelect(event.currentTarget.checked)}
          aria-label={t("admin.gallery.bulk.select", { name })}
          className="size-5 shrink-0 accent-indigo-700"
        />
        <div className="size-16 shrink-0 overflow-hidden rounded-md bg-zinc-100 dark:bg-zinc-800">
          <ResponsiveImage image={item.image} alt="" sizes="64px" className="size-16 object-cover" />
        </div>
        <div className="min-w-0 flex-1">
          {/* Titles and categories wrap (a long word anywhere): a phone's row cut them. */}
          <p className="font-medium [overflow-wrap:anywhere]">{name}</p>
          <p className="text-sm text-zinc-600 [overflow-wrap:anywhere] dark:text-zinc-300">
            {category || t("admin.gallery.noCategory")} ·{" "}
            {t("admin.gallery.size", { width: item.width, height: item.height })}
          </p>
          <p
            className={`text-xs font-semibold ${
              item.published ? "text-green-800 dark:text-green-300" : "text-amber-800 dark:text-amber-300"
            }`}
          >
            {item.published ? t("admin.common.published") : t("admin.common.unpublished")}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-1">
          <Button
            variant="secondary"
            size="sm"
            disabled={busy}
            aria-label={t(item.published ? "admin.gallery.unpublishLabel" : "admin.gallery.publishLabel", { name })}
            onClick={() =>
              fetcher.submit(
                { intent: item.published ? "unpublish" : "publish", id: item.id, name },
                { method: "post" },
              )
            }
          >
            {item.published ? (
              <EyeOff aria-hidden="true" className="size-4" />
            ) : (
              <Eye aria-hidden="true" className="size-4" />
            )}
            {item.published ? t("admin.gallery.unpublish") : t("admin.gallery.publish")}
          </Button>
          <EditDeleteActions
            name={name}
            editing={editing}
            onToggleEdit={() => setEditing((open) => !open)}
            editLabel={t("admin.gallery.editLabel", { name })}
            deleteLabel={t("admin.gallery.deleteLabel", { name })}
            deleteText={t("admin.gallery.deleteText")}
            onDelete={() => fetcher.submit({ intent: "delete", id: item.id, name }, { method: "post" })}
            busy={busy}
          />
        </div>
      </div>
      {editing ? (
        <GalleryEditor item={item} categories={categories} groups={groups} onClose={() => setEditing(false)} />
      ) : null}
    </div>
  );
}

/** Select all, and what to do with the selected pictures: publish, hide, set the category, delete. */
function BulkActions({
  items,
  selected,
  categories,
  groups,
  onSelectAll,
  onDone,
}: {
  items: AdminGalleryItem[];
  selected: string[];
  categories: Category[];
  groups: { id: string; name: string }[];
  onSelectAll: (all: boolean) => void;
  onDone: () => void;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.data, t("admin.common.error"));
  const selectAll = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const [category, setCategory] = useState("");
  const count = selected.length;
  const none = count === 0 || fetcher.state !== "idle";

  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = count > 0 && count < items.length;
  }, [count, items.length]);

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);

  const submit = (bulk: string) =>
    fetcher.submit({ intent: "bulk", bulk, ids: selected.join(","), category }, { method: "post" });

  return (
    <section
      aria-label={t("admin.gallery.bulk.label")}
      className="mb-3 flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800"
    >
      <label className="flex items-center gap-2 self-center text-sm font-medium">
        <input
          ref={selectAll}
          type="checkbox"
          checked={count > 0 && count === items.length}
          onChange={(event) => onSelectAll(event.currentTarget.checked)}
          className="size-5 accent-indigo-700"
        />
        {t("admin.gallery.bulk.selectAll")}
      </label>
      <p aria-live="polite" className="self-center text-sm text-zinc-600 dark:text-zinc-300">
        {t("admin.gallery.bulk.selected", { count })}
      </p>
      <div className="flex flex-wrap gap-1">
        <Button size="sm" variant="secondary" disabled={none} onClick={() => submit("publish")}>
          <Eye aria-hidden="true" className="size-4" />
          {t("admin.gallery.publish")}
        </Button>
        <Button size="sm" variant="secondary" disabled={none} onClick={() => submit("hide")}>
          <EyeOff aria-hidden="true" className="size-4" />
          {t("admin.gallery.unpublish")}
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-1">
        <TextField
          label={t("admin.gallery.bulk.category")}
          value={category}
          onChange={(event) => setCategory(event.currentTarget.value)}
          list={fieldId}
          autoComplete="off"
          maxLength={80}
          className="w-56"
        />
        <CategoryOptions id={fieldId} categories={categories} lang="en" />
        <Button size="sm" variant="secondary" disabled={none} onClick={() => submit("category")}>
          <Tag aria-hidden="true" className="size-4" />
          {t("admin.gallery.bulk.setCategory")}
        </Button>
      </div>
      <GalleryBulkAccess selected={selected} groups={groups} onDone={onDone} />
      <ConfirmDialog
        trigger={
          <Button size="sm" variant="dangerOutline" disabled={none}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t("admin.common.delete")}
          </Button>
        }
        title={t("admin.gallery.bulk.deleteTitle", { count })}
        description={t("admin.gallery.bulk.deleteText")}
        confirmLabel={t("admin.common.delete")}
        cancelLabel={t("admin.common.cancel")}
        onConfirm={() => submit("delete")}
      />
    </section>
  );
}

export default function AdminGallery({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const revalidator = useRevalidator();
  const reorder = useFetcher<ActionResult>();
  useResultToast(reorder.data, t("admin.common.error"));
  const { items, categories, groups, maxBytes } = loaderData;
  const [selection, setSelection] = useState<ReadonlySet<string>>(new Set());
  // Only pictures still in the list count (one deleted meanwhile drops out).
  const selected = items.filter((item) => selection.has(item.id)).map((item) => item.id);
  const clearSelection = useRef(() => setSelection(new Set())).current;

  const select = (id: string, on: boolean) =>
    setSelection((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div>
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.gallery.title")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.gallery.intro")}</p>
      </header>
      <GalleryUploader
        uploadUrl={GALLERY_UPLOAD_URL}
        maxBytes={maxBytes}
        onUploaded={() => void revalidator.revalidate()}
      />
      <section aria-labelledby="gallery-list-heading">
        <h2 id="gallery-list-heading" className="mb-3 text-xl font-semibold">
          {t("admin.gallery.list.heading", { count: items.length })}
        </h2>
        {items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 px-6 py-8 text-center text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
            {t("admin.gallery.empty")}
          </p>
        ) : (
          <>
            <BulkActions
              items={items}
              selected={selected}
              categories={categories}
              groups={groups}
              onSelectAll={(all) => setSelection(new Set(all ? items.map((item) => item.id) : []))}
              onDone={clearSelection}
            />
            <SortableList
              items={items}
              label={t("admin.gallery.list.label")}
              nameOf={(item) => nameOf(item, t("admin.common.untitled"))}
              renderItem={(item) => (
                <GalleryRow
                  item={item}
                  categories={categories}
                  groups={groups}
                  selected={selection.has(item.id)}
                  onSelect={(on) => select(item.id, on)}
                />
              )}
              onReorder={(ids) => reorder.submit({ intent: "reorder", ids: ids.join(",") }, { method: "post" })}
            />
          </>
        )}
      </section>
    </div>
  );
}
