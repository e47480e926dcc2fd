import { CalendarClock, Eye, Save, Send, Trash2, Undo2 } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { UnsavedChangesPrompt } from "#app/components/admin/settings/unsaved-changes.tsx";
import { Button, buttonClass } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { TextAreaField, TextField } from "#app/components/ui/field.tsx";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import type { AdminPost } from "#app/domains/posts/post-rows.server.ts";
import { COVER_ALT_MAX, EXCERPT_MAX, SLUG_MAX, TITLE_MAX } from "#app/domains/posts/post-schema.ts";
import { toZonedLocal } from "#app/domains/posts/schedule-time.ts";
import { followedSlugs, slugsFollow } from "#app/domains/posts/slug-follow.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import type { PostFormValues } from "#app/routes/admin.posts.$id.server.ts";
import { CoverPicker } from "./cover-picker.tsx";
import { useBrowserTimeZone, useFormatTime } from "./local-time.tsx";
import { MarkdownBodyField } from "./markdown-body-field.tsx";
import { PostStatusBadge } from "./post-status-badge.tsx";
import { type AutosaveState, readLocalCopy, usePostDraft } from "./use-post-draft.ts";

const LANGUAGES: Language[] = ["en", "de"];
/** The form field of `field` in `lang`: the English ones have no suffix. */
const fieldOf = (field: "title" | "slug" | "excerpt" | "body" | "cover_alt", lang: Language) =>
  (lang === "en" ? field : `${field}_de`) as keyof PostFormValues;

export function PostEditor(props: {
  post: AdminPost | null;
  values: PostFormValues;
  serverValues: PostFormValues;
  knownTags: string[];
  previewLinks: { en: string; de: string } | null;
  fieldErrors: Record<string, string>;
}) {
  const t = useAdminTranslate();
  const { post } = props;
  const [values, setValues] = useState(props.values);
  const [cover, setCover] = useState<ImageDisplay | null>(post?.cover ?? null);
  const [tab, setTab] = useState<Language>(() =>
    Object.keys(props.fieldErrors).some((field) => field.endsWith("_de")) &&
    !Object.keys(props.fieldErrors).some((field) => !field.endsWith("_de"))
      ? "de"
      : "en",
  );
  const [hydrated, setHydrated] = useState(false);
  // A slug follows its title until the admin edits it, and never once the post has been published (links exist);
  // the German one follows the German title, or the English slug while there is no German title (slug-follow.ts).
  const [slugFollows, setSlugFollows] = useState(() => slugsFollow(values, Boolean(post?.publishAt)));
  const [restore, setRestore] = useState<{ values: PostFormValues; savedAt: number } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const navigation = useNavigation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const zone = useBrowserTimeZone();
  const formatTime = useFormatTime();

  const status = post?.status ?? "draft";
  const draft = usePostDraft({
    postId: post?.id ?? null,
    autosave: status === "draft",
    values,
    serverValues: props.serverValues,
  });

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (navigation.state === "idle") setSubmitting(false);
  }, [navigation.state]);

  // A copy this browser kept that is newer than what the server has: offer it back (never applied unasked),
  // once, when the editor opens.
  const checkedCopy = useRef(false);
  const serverValues = props.serverValues;
  useEffect(() => {
    if (checkedCopy.current) return;
    checkedCopy.current = true;
    const copy = readLocalCopy(post?.id ?? null);
    if (!copy) return;
    const serverTime = post ? Date.parse(post.updatedAt) : 0;
    const differs = JSON.stringify(copy.values) !== JSON.stringify(serverValues);
    if (differs && copy.savedAt > serverTime) setRestore({ values: copy.values, savedAt: copy.savedAt });
  }, [post, serverValues]);

  const set = (field: keyof PostFormValues, value: string) => setValues((current) => ({ ...current, [field]: value }));
  const setTitle = (lang: Language, title: string) =>
    setValues((current) => {
      const next = { ...current, [fieldOf("title", lang)]: title };
      return { ...next, ...followedSlugs(next, slugFollows) };
    });
  const setSlug = (lang: Language, slug: string) => {
    const follow = { ...slugFollows, [lang]: false };
    setSlugFollows(follow);
    setValues((current) => {
      const next = { ...current, [fieldOf("slug", lang)]: slug };
      return { ...next, ...followedSlugs(next, follow) };
    });
  };

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft" && event.key !== "Home" && event.key !== "End") return;
    event.preventDefault();
    const next: Language = event.key === "Home" ? "en" : event.key === "End" ? "de" : tab === "en" ? "de" : "en";
    setTab(next);
    document.getElementById(`post-tab-${next}`)?.focus();
  };

  const errors = props.fieldErrors;
  const busy = navigation.state !== "idle";
  const scheduledLocal =
    post?.status === "scheduled" && post.publishAt && zone ? toZonedLocal(new Date(post.publishAt), zone) : "";

  return (
    <div>
      {restore ? (
        <div
          role="alert"
          className="mb-6 rounded-md border border-amber-600 bg-amber-50 p-4 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-semibold">{t("admin.posts.restore.title")}</p>
          <p className="mt-1 text-sm">
            {t("admin.posts.restore.text", { time: formatTime(new Date(restore.savedAt).toISOString()) })}
          </p>
          <div className="mt-3 flex gap-2">
            <Button
              size="sm"
              onClick={() => {
                setValues(restore.values);
                setRestore(null);
              }}
            >
              {t("admin.posts.restore.apply")}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setRestore(null);
                setValues(props.serverValues);
                draft.markConfirmed(props.serverValues);
                try {
                  window.localStorage.removeItem(`vitrine.post-editor:${post?.id ?? "new"}`);
                } catch {
                  // Nothing kept, nothing to remove.
                }
              }}
            >
              {t("admin.posts.restore.discard")}
            </Button>
          </div>
        </div>
      ) : null}

      <Form ref={form} method="post" onSubmit={() => setSubmitting(true)} className="grid gap-6">
        <input type="hidden" name="post_id" value={draft.postId ?? ""} />
        <input type="hidden" name="time_zone" value={zone ?? ""} />

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

        <div className="grid gap-6 lg:grid-cols-2">
          <CoverPicker
            imageId={values.cover_image_id}
            image={cover}
            alt={values.cover_alt}
            error={errors.cover_image_id}
            onChange={(imageId, image) => {
              set("cover_image_id", imageId);
              setCover(image);
            }}
          />
          <div>
            <TextField
              label={t("admin.posts.field.tags")}
              name="tags"
              value={values.tags}
              onChange={(event) => set("tags", event.target.value)}
              list="post-known-tags"
              hint={t("admin.posts.field.tagsHint")}
              error={errors.tags}
            />
            <datalist id="post-known-tags">
              {props.knownTags.map((tag) => (
                <option key={tag} value={tag} />
              ))}
            </datalist>
          </div>
        </div>

        <fieldset className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-700">
          <legend className="px-1 text-sm font-medium">{t("admin.posts.actions")}</legend>
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="post-state">
            <PostStatusBadge status={status} visible={post?.visible ?? false} />
            <span>
              {!post
                ? t("admin.posts.state.new")
                : post.status === "draft"
                  ? t("admin.posts.state.draft")
                  : post.publishAt
                    ? post.status === "scheduled" && !post.visible
                      ? t("admin.posts.state.scheduled", { time: formatTime(post.publishAt) })
                      : t("admin.posts.state.published", { time: formatTime(post.publishAt) })
                    : null}
            </span>
          </div>
          <AutosaveStatus state={draft.state} dirty={draft.dirty} />

          <div className="mt-4 flex flex-wrap gap-2">
            <button type="submit" name="intent" value="save" className={buttonClass("secondary")} disabled={busy}>
              <Save aria-hidden="true" className="size-4" />
              {status === "draft" ? t("admin.posts.saveDraft") : t("admin.posts.saveChanges")}
            </button>
            {status !== "published" || !post?.visible ? (
              <button type="submit" name="intent" value="publish" className={buttonClass("primary")} disabled={busy}>
                <Send aria-hidden="true" className="size-4" />
                {t("admin.posts.publishNow")}
              </button>
            ) : null}
            {post && status !== "draft" ? (
              <button
                type="submit"
                name="intent"
                value="unpublish"
                className={buttonClass("secondary")}
                disabled={busy}
              >
                <Undo2 aria-hidden="true" className="size-4" />
                {t("admin.posts.unpublish")}
              </button>
            ) : null}
          </div>

          {status !== "published" || !post?.visible ? (
            <div className="mt-4 flex flex-wrap items-end gap-2">
              <TextField
                key={scheduledLocal}
                type="datetime-local"
                label={t("admin.posts.scheduleAt")}
                name="publish_local"
                defaultValue={scheduledLocal}
                hint={t("admin.posts.scheduleHint", { zone: zone ?? "UTC" })}
                error={errors.publishAt}
              />
              <button
                type="submit"
                name="intent"
                value="schedule"
                className={buttonClass("secondary", "md", "mb-6")}
                disabled={busy}
              >
                <CalendarClock aria-hidden="true" className="size-4" />
                {t("admin.posts.schedule")}
              </button>
            </div>
          ) : null}

          {post && props.previewLinks ? (
            <div className="mt-4">
              <div className="flex flex-wrap gap-2">
                <a href={props.previewLinks.en} target="_blank" rel="noopener" className={buttonClass("ghost", "sm")}>
                  <Eye aria-hidden="true" className="size-4" />
                  {t("admin.posts.previewAsVisitor")}
                </a>
                <a href={props.previewLinks.de} target="_blank" rel="noopener" className={buttonClass("ghost", "sm")}>
                  <Eye aria-hidden="true" className="size-4" />
                  {t("admin.posts.previewAsVisitorDe")}
                </a>
              </div>
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">{t("admin.posts.previewHint")}</p>
            </div>
          ) : null}

          {post ? (
            <div className="mt-6 border-t border-zinc-200 pt-4 dark:border-zinc-700">
              {/* Without JavaScript this deletes at once; with it, the dialog asks first. */}
              <button
                type="submit"
                name="intent"
                value="delete"
                formNoValidate
                className={buttonClass("dangerOutline", "sm")}
                disabled={busy}
                onClick={(event) => {
                  event.preventDefault();
                  setConfirmDelete(true);
                }}
              >
                <Trash2 aria-hidden="true" className="size-4" />
                {t("admin.posts.delete")}
              </button>
              <ConfirmDialog
                open={confirmDelete}
                onOpenChange={setConfirmDelete}
                title={t("admin.posts.deleteTitle")}
                description={t("admin.posts.deleteText", { title: post.title })}
                confirmLabel={t("admin.posts.deleteConfirm")}
                cancelLabel={t("admin.posts.cancel")}
                onConfirm={() => {
                  setSubmitting(true);
                  submit({ intent: "delete" }, { method: "post", action: `/admin/posts/${post.id}` });
                }}
              />
            </div>
          ) : null}
        </fieldset>
      </Form>
      <p className="mt-6">
        <Link to="/admin/posts" className="text-sm font-medium text-indigo-700 underline dark:text-indigo-300">
          {t("admin.posts.editor.back")}
        </Link>
      </p>
      <UnsavedChangesPrompt dirty={draft.dirty && !submitting} onDiscard={() => setValues(props.serverValues)} />
    </div>
  );
}

function AutosaveStatus({ state, dirty }: { state: AutosaveState; dirty: boolean }) {
  const t = useAdminTranslate();
  const formatTime = useFormatTime();
  let text = "";
  let warn = false;
  switch (state.kind) {
    case "saving":
      text = t("admin.posts.autosave.saving");
      break;
    case "saved":
      text = dirty
        ? t("admin.posts.autosave.waiting")
        : t("admin.posts.autosave.saved", { time: formatTime(state.at) });
      break;
    case "waiting":
      text = t("admin.posts.autosave.waiting");
      break;
    case "offline":
      text = t("admin.posts.autosave.offline");
      warn = true;
      break;
    case "refused":
      text = t("admin.posts.autosave.refused", { message: state.message });
      warn = true;
      break;
    case "manual":
      text = dirty ? t("admin.posts.autosave.manual") : "";
      break;
    case "needsTitle":
      text = dirty ? t("admin.posts.autosave.needsTitle") : "";
      break;
    case "idle":
      text = "";
  }
  return (
    <p
      role="status"
      data-testid="autosave-status"
      className={`mt-2 min-h-5 text-sm ${warn ? "text-red-700 dark:text-red-300" : "text-zinc-600 dark:text-zinc-300"}`}
    >
      {text}
    </p>
  );
}
