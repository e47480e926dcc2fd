import { useEffect, useId } from "react";
import { useFetcher } from "react-router";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { TextAreaField, TextField } from "#app/components/ui/field.tsx";
import type { AdminGalleryItem } from "#app/domains/gallery/gallery.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { GalleryAccessForm } from "./gallery-access-form.tsx";

/* The admin gallery's editor of one picture: its texts in both languages, and who may see it. */

export function nameOf(item: AdminGalleryItem, fallback: string) {
  return item.title.trim() || fallback;
}

export type Category = { en: string; de: string };

/** The categories in use, offered by the category fields (a typed new one is added by saving it). */
export function CategoryOptions({ id, categories, lang }: { id: string; categories: Category[]; lang: "en" | "de" }) {
  const values = [...new Set(categories.map((category) => (lang === "de" ? category.de : category.en)))];
  return (
    <datalist id={id}>
      {values.filter(Boolean).map((value) => (
        <option key={value} value={value} />
      ))}
    </datalist>
  );
}

export function GalleryEditor({
  item,
  categories,
  groups,
  onClose,
}: {
  item: AdminGalleryItem;
  categories: Category[];
  groups: { id: string; name: string }[];
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
    <>
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
      <GalleryAccessForm item={item} name={name} groups={groups} />
    </>
  );
}
