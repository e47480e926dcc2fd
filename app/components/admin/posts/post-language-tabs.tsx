import type { KeyboardEvent } from "react";
import { TextAreaField, TextField } from "#app/components/ui/field.tsx";
import { COVER_ALT_MAX, EXCERPT_MAX, SLUG_MAX, TITLE_MAX } from "#app/domains/posts/post-schema.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { MarkdownBodyField } from "./markdown-body-field.tsx";
import type { PostFormValues } from "./use-post-draft.ts";

const LANGUAGES: Language[] = ["en", "de"];
/** The form field of `field` in `lang`: the English ones have no suffix. */
export const fieldOf = (field: "title" | "slug" | "excerpt" | "body" | "cover_alt", lang: Language) =>
  (lang === "en" ? field : `${field}_de`) as keyof PostFormValues;

/** The post's texts in both languages, one tab each (both shown one below the other without JavaScript). */
export function PostLanguageTabs({
  tab,
  setTab,
  hydrated,
  values,
  errors,
  set,
  setTitle,
  setSlug,
}: {
  tab: Language;
  setTab: (lang: Language) => void;
  hydrated: boolean;
  values: PostFormValues;
  errors: Record<string, string>;
  set: (field: keyof PostFormValues, value: string) => void;
  setTitle: (lang: Language, title: string) => void;
  setSlug: (lang: Language, slug: string) => void;
}) {
  const t = useAdminTranslate();

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft" && event.key !== "Home" && event.key !== "End") return;
    event.preventDefault();
    const next: Language = event.key === "Home" ? "en" : event.key === "End" ? "de" : tab === "en" ? "de" : "en";
    setTab(next);
    document.getElementById(`post-tab-${next}`)?.focus();
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label={t("admin.posts.editor.languages")}
        className="flex gap-1 border-b border-zinc-200 dark:border-zinc-700"
      >
        {LANGUAGES.map((lang) => {
          const hasError = Object.keys(errors).some((field) => (lang === "de") === field.endsWith("_de"));
          return (
            <button
              key={lang}
              id={`post-tab-${lang}`}
              type="button"
              role="tab"
              aria-selected={tab === lang}
              aria-controls={`post-panel-${lang}`}
              tabIndex={tab === lang ? 0 : -1}
              onClick={() => setTab(lang)}
              onKeyDown={onTabKey}
              className={`-mb-px rounded-t-md border px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                tab === lang
                  ? "border-zinc-200 border-b-white bg-white text-zinc-900 dark:border-zinc-700 dark:border-b-zinc-950 dark:bg-zinc-950 dark:text-zinc-100"
                  : "border-transparent text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100"
              }`}
            >
              {lang === "en" ? t("admin.posts.editor.english") : t("admin.posts.editor.german")}
              {hasError ? <span className="ml-1 text-red-700 dark:text-red-300">*</span> : null}
            </button>
          );
        })}
      </div>
      {LANGUAGES.map((lang) => (
        <div
          key={lang}
          id={`post-panel-${lang}`}
          role="tabpanel"
          aria-labelledby={`post-tab-${lang}`}
          // Without JavaScript both languages show, one below the other.
          hidden={hydrated && tab !== lang}
          className="grid gap-4 pt-4"
        >
          {lang === "de" ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-300">{t("admin.posts.editor.germanHint")}</p>
          ) : null}
          <TextField
            label={t("admin.posts.field.title")}
            name={fieldOf("title", lang)}
            value={values[fieldOf("title", lang)]}
            onChange={(event) => setTitle(lang, event.target.value)}
            maxLength={TITLE_MAX}
            required={lang === "en"}
            lang={lang}
            error={errors[fieldOf("title", lang)]}
          />
          <TextField
            label={t("admin.posts.field.slug")}
            name={fieldOf("slug", lang)}
            value={values[fieldOf("slug", lang)]}
            onChange={(event) => setSlug(lang, event.target.value)}
            maxLength={SLUG_MAX}
            hint={t("admin.posts.field.slugHint")}
            error={errors[fieldOf("slug", lang)]}
            className="max-w-xl"
          />
          <TextAreaField
            label={t("admin.posts.field.excerpt")}
            name={fieldOf("excerpt", lang)}
            value={values[fieldOf("excerpt", lang)]}
            onChange={(event) => set(fieldOf("excerpt", lang), event.target.value)}
            maxLength={EXCERPT_MAX}
            rows={2}
            lang={lang}
            hint={t("admin.posts.field.excerptHint")}
            error={errors[fieldOf("excerpt", lang)]}
          />
          <MarkdownBodyField
            lang={lang}
            name={fieldOf("body", lang)}
            label={t("admin.posts.field.body")}
            value={values[fieldOf("body", lang)]}
            onChange={(text) => set(fieldOf("body", lang), text)}
            error={errors[fieldOf("body", lang)]}
          />
          <TextField
            label={t("admin.posts.field.coverAlt")}
            name={fieldOf("cover_alt", lang)}
            value={values[fieldOf("cover_alt", lang)]}
            onChange={(event) => set(fieldOf("cover_alt", lang), event.target.value)}
            maxLength={COVER_ALT_MAX}
            lang={lang}
            hint={t("admin.posts.field.coverAltHint")}
            error={errors[fieldOf("cover_alt", lang)]}
          />
        </div>
      ))}
    </div>
  );
}
