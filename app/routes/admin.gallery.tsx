import { Eye, EyeOff, Tag, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { data, useFetcher, useRevalidator } from "react-router";
import { GalleryUploader } from "#app/components/admin/gallery-uploader.tsx";
import { EditDeleteActions } from "#app/components/admin/row-actions.tsx";
import { SortableList } from "#app/components/admin/sortable-list.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { ResponsiveImage } from "#app/components/responsive-image.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { TextAreaField, TextField } from "#app/components/ui/field.tsx";
import { ReorderError } from "#app/db/ordering.server.ts";
import type { AdminGalleryItem } from "#app/domains/gallery/gallery.ts";
import {
  applyGalleryBulkAction,
  deleteGalleryEntry,
  GalleryNotFoundError,
  listGalleryCategories,
  listGalleryForAdmin,
  reorderGallery,
  setGalleryPublished,
  updateGalleryTexts,
} from "#app/domains/gallery/gallery-admin.server.ts";
import {
  galleryBulkSchema,
  galleryIdSchema,
  galleryReorderSchema,
  galleryTextsSchema,
} from "#app/domains/gallery/gallery-schema.ts";
import { adminTranslatorFor } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { fieldErrorsOf, translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.gallery";

const GALLERY_UPLOAD_URL = "/admin/uploads/gallery";

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const db = runtimeOf(context).database.db;
  return {
    items: await listGalleryForAdmin(db),
    categories: await listGalleryCategories(db),
    maxBytes: runtimeOf(context).env.uploadMaxBytes,
  };
}

const refuse = (message: string, status = 400, fieldErrors?: Record<string, string>) =>
  data<ActionResult>({ ok: false, message, fieldErrors }, { status });

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = requireAdmin(url, context);
  const t = adminTranslatorFor(languageOf(request).lang);
  const form = await readForm(request);
  const { database, storage } = runtimeOf(context);
  const db = database.db;
  const id = galleryIdSchema.safeParse(form.id ?? "");
  const displayName = (title: string | undefined) => title?.trim() || t("admin.common.untitled");
  try {
    switch (form.intent) {
      case "update": {
        if (!id.success) return refuse(t("admin.common.notFound"), 404);
        const texts = galleryTextsSchema.safeParse(form);
        if (!texts.success) {
          return refuse(t("admin.gallery.invalid"), 400, translateFieldErrors(t, fieldErrorsOf(texts.error)));
        }
        await updateGalleryTexts(db, admin, id.data, texts.data);
        return data<ActionResult>({
          ok: true,
          message: t("admin.gallery.saved", { name: displayName(texts.data.title) }),
        });
      }
      case "publish":
      case "unpublish": {
        if (!id.success) return refuse(t("admin.common.notFound"), 404);
        const published = form.intent === "publish";
        await setGalleryPublished(db, admin, id.data, published);
        const name = displayName(form.name);
        return data<ActionResult>({
          ok: true,
          message: t(published ? "admin.gallery.published" : "admin.gallery.unpublished", { name }),
        });
      }
      case "delete": {
        if (!id.success) return refuse(t("admin.common.notFound"), 404);
        await deleteGalleryEntry(db, admin, id.data, storage);
        return data<ActionResult>({ ok: true, message: t("admin.gallery.deleted", { name: displayName(form.name) }) });
      }
      case "bulk": {
        const bulk = galleryBulkSchema.safeParse(form);
        if (!bulk.success) return refuse(t("admin.gallery.invalid"));
        const { bulk: action, ids, category } = bulk.data;
        const names = (await applyGalleryBulkAction(db, admin, { action, ids, category }, storage))
          .map((name) => `“${name}”`)
          .join(", ");
        const message =
          action === "publish"
            ? t("admin.gallery.bulk.published", { names })
            : action === "hide"
              ? t("admin.gallery.bulk.hidden", { names })
              : action === "delete"
                ? t("admin.gallery.bulk.deleted", { names })
                : category === ""
                  ? t("admin.gallery.bulk.categoryCleared", { names })
                  : t("admin.gallery.bulk.categorySet", { category, names });
        return data<ActionResult>({ ok: true, message });
      }
      case "reorder": {
        const ids = galleryReorderSchema.safeParse((form.ids ?? "").split(",").filter(Boolean));
        if (!ids.success) return refuse(t("admin.common.error"));
        await reorderGallery(db, admin, ids.data);
        return data<ActionResult>({ ok: true, message: t("admin.common.orderSaved") });
      }
      default:
        return refuse(t("admin.common.error"));
    }
  } catch (error) {
    if (error instanceof GalleryNotFoundError) return refuse(t("admin.common.notFound"), 404);
    if (error instanceof ReorderError) return refuse(error.message, 409);
    throw error;
  }
}

function nameOf(item: AdminGalleryItem, fallback: string) {
  return item.title.trim() || fallback;
}

type Category = { en: string; de: string };

/** The categories in use, offered by the category fields (a typed new one is added by saving it). */
function CategoryOptions({ id, categories, lang }: { id: string; categories: Category[]; lang: "en" | "de" }) {
  const values = [...new Set(categories.map((category) => (lang === "de" ? category.de : category.en)))];
  return (
    <datalist id={id}>
      {values.filter(Boolean).map((value) => (
        <option key={value} value={value} />
      ))}
    </datalist>
  );
}

function GalleryEditor({
  item,
  categories,
  onClose,
}: {
  item: AdminGalleryItem;
  categories: Category[];
  onClose: () => void;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  const result = useResultToast(fetcher.data, t("admin.common.error"));
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const name = nameOf(item, t("admin.common.untitled"));
  const listId = useId();

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);

  const fields = (lang: "en" | "de") => {
    const suffix = lang === "de" ? "_de" : "";
    const hint = lang === "de" ? t("admin.common.germanFallback") : undefined;
    return (
      <fieldset className="min-w-0 space-y-3">
        <legend className="mb-1 text-sm font-semibold">
          {lang === "de" ? t("admin.common.german") : t("admin.common.english")}
        </legend>
        <TextField
          label={t("admin.gallery.field.title")}
          name={`title${suffix}`}
          defaultValue={lang === "de" ? item.titleDe : item.title}
          maxLength={200}
          hint={hint}
          error={errors[`title${suffix}`]}
        />
        <TextField
          label={t("admin.gallery.field.alt")}
          name={`alt${suffix}`}
          defaultValue={lang === "de" ? item.altDe : item.alt}
          maxLength={300}
          hint={lang === "de" ? hint : t("admin.gallery.field.altHint")}
          error={errors[`alt${suffix}`]}
        />
        <TextAreaField
          label={t("admin.gallery.field.description")}
          name={`description${suffix}`}
          defaultValue={lang === "de" ? item.descriptionDe : item.description}
          maxLength={2000}
          rows={3}
          hint={
            lang === "de"
              ? `${t("admin.gallery.field.descriptionHint")} ${hint}`
              : t("admin.gallery.field.descriptionHint")
          }
          error={errors[`description${suffix}`]}
        />
        <TextField
          label={t("admin.gallery.field.category")}
          name={`category${suffix}`}
          list={`${listId}-${lang}`}
          autoComplete="off"
          defaultValue={lang === "de" ? item.categoryDe : item.category}
          maxLength={80}
          hint={
            lang === "en" ? `${t("admin.gallery.field.categoryPick")} ${t("admin.gallery.field.categoryHint")}` : hint
          }
          error={errors[`category${suffix}`]}
          onChange={
            lang === "en"
              ? (event) => {
                  // An existing category brings its German name along when none is written yet.
                  const known = categories.find((category) => category.en === event.currentTarget.value);
                  const german = event.currentTarget.form?.elements.namedItem("category_de");
                  if (known && german instanceof HTMLInputElement && german.value === "") german.value = known.de;
                }
              : undefined
          }
        />
        <CategoryOptions id={`${listId}-${lang}`} categories={categories} lang={lang} />
      </fieldset>
    );
  };

  return (
    <fetcher.Form
      method="post"
      aria-label={t("admin.gallery.editHeading", { name })}
      className="mt-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={item.id} />
      <div className="grid gap-6 md:grid-cols-2">
        {fields("en")}
        {fields("de")}
      </div>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {t("admin.common.cancel")}
        </Button>
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {fetcher.state === "idle" ? t("admin.common.save") : t("admin.common.saving")}
        </Button>
      </div>
    </fetcher.Form>
  );
}

function GalleryRow({
  item,
  categories,
  selected,
  onSelect,
}: {
  item: AdminGalleryItem;
  categories: Category[];
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
      {editing ? <GalleryEditor item={item} categories={categories} onClose={() => setEditing(false)} /> : null}
    </div>
  );
}

/** Select all, and what to do with the selected pictures: publish, hide, set the category, delete. */
function BulkActions({
  items,
  selected,
  categories,
  onSelectAll,
  onDone,
}: {
  items: AdminGalleryItem[];
  selected: string[];
  categories: Category[];
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
  const { items, categories, maxBytes } = loaderData;
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
