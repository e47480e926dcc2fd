import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { UnsavedChangesPrompt } from "#app/components/admin/settings/unsaved-changes.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import type { ImageDisplay } from "#app/domains/media/image-display.ts";
import type { PostConflict, PostFormValues } from "#app/domains/posts/post-editor-form.ts";
import type { AdminPost } from "#app/domains/posts/post-rows.server.ts";
import { toZonedLocal } from "#app/domains/posts/schedule-time.ts";
import { followedSlugs, slugsFollow } from "#app/domains/posts/slug-follow.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { CoverPicker } from "./cover-picker.tsx";
import { useBrowserTimeZone } from "./local-time.tsx";
import { PostAccessField } from "./post-access-field.tsx";
import { PostActions } from "./post-actions.tsx";
import { PostConflictBanner } from "./post-conflict-banner.tsx";
import { fieldOf, PostLanguageTabs } from "./post-language-tabs.tsx";
import { PostPresenceNote } from "./post-presence-note.tsx";
import { PostRestoreBanner } from "./post-restore-banner.tsx";
import { PostShareLinks } from "./post-share-links.tsx";
import { usePostConflict } from "./use-post-conflict.ts";
import { readLocalCopy, usePostDraft } from "./use-post-draft.ts";
import { usePostPresence } from "./use-post-presence.ts";

export function PostEditor(props: {
  post: AdminPost | null;
  values: PostFormValues;
  serverValues: PostFormValues;
  knownTags: string[];
  previewLinks: { en: string; de: string } | null;
  /** The groups the post may be restricted to. */
  groups: { id: string; name: string }[];
  fieldErrors: Record<string, string>;
  /** A save refused because the post was saved elsewhere meanwhile (the server's answer). */
  conflict: PostConflict | null;
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
  const [submitting, setSubmitting] = useState(false);
  const navigation = useNavigation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const zone = useBrowserTimeZone();

  // What the text is based on: the stored post's `updatedAt` when the editor opened, moved by its own saves and
  // by the admin's choice in a conflict. Every save names it, so one over a newer post is refused, not applied.
  const [base, setBase] = useState(post?.updatedAt ?? "");
  const [conflict, setConflict] = useState<PostConflict | null>(props.conflict);
  // A save refused by the server for a newer post (the page is not loaded again after a refusal).
  useEffect(() => {
    if (props.conflict) setConflict(props.conflict);
  }, [props.conflict]);
  const status = post?.status ?? "draft";
  const draft = usePostDraft({
    postId: post?.id ?? null,
    autosave: status === "draft",
    values,
    serverValues: props.serverValues,
    base,
    paused: conflict !== null,
    holding: navigation.state !== "idle",
    onSaved: setBase,
    onConflict: setConflict,
  });
  const heldSubmit = useRef<HTMLButtonElement | null | undefined>(undefined);
  useEffect(() => {
    if (heldSubmit.current === undefined || draft.state.kind === "saving") return;
    const button = heldSubmit.current;
    heldSubmit.current = undefined;
    if (draft.state.kind === "conflict") return; // the admin chooses first
    setSubmitting(true);
    submit(button ?? form.current, { method: "post" });
  }, [draft.state.kind, submit]);
  const others = usePostPresence(draft.postId);
  const takeStored = (stored: PostConflict) => {
    setValues(stored.values);
    setCover(stored.cover);
    setBase(stored.updatedAt);
    draft.markConfirmed(stored.values);
  };
  usePostConflict({
    postId: draft.postId,
    base,
    values,
    dirty: draft.dirty,
    saving: draft.state.kind === "saving" || navigation.state !== "idle",
    onConflict: setConflict,
    onStored: takeStored,
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

  const errors = props.fieldErrors;
  const busy = navigation.state !== "idle";
  const scheduledLocal =
    post?.status === "scheduled" && post.publishAt && zone ? toZonedLocal(new Date(post.publishAt), zone) : "";

  return (
    <div>
      {restore ? (
        <PostRestoreBanner
          savedAt={restore.savedAt}
          onApply={() => {
            setValues(restore.values);
            setRestore(null);
          }}
          onDiscard={() => {
            setRestore(null);
            setValues(props.serverValues);
            draft.markConfirmed(props.serverValues);
            try {
              window.localStorage.removeItem(`vitrine.post-editor:${post?.id ?? "new"}`);
            } catch {
              // Nothing kept, nothing to remove.
            }
          }}
        />
      ) : null}

      <PostPresenceNote others={others} />
      {conflict ? (
        <PostConflictBanner
          conflict={conflict}
          mine={values}
          onKeepMine={() => {
            // The next save (by hand, or the draft's own) replaces theirs.
            setBase(conflict.updatedAt);
            setConflict(null);
          }}
          onTakeTheirs={() => {
            takeStored(conflict);
            setConflict(null);
          }}
        />
      ) : null}

      <Form
        ref={form}
        method="post"
        onSubmit={(event) => {
          // A button pressed while the draft saves itself waits for that save: sent at once, it would name the
          // base the draft's save is about to replace, and be refused as a save made elsewhere.
          if (draft.state.kind === "saving") {
            event.preventDefault();
            heldSubmit.current = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            return;
          }
          setSubmitting(true);
        }}
        className="grid gap-6"
      >
        <input type="hidden" name="post_id" value={draft.postId ?? ""} />
        <input type="hidden" name="base_updated_at" value={base} />
        <input type="hidden" name="time_zone" value={zone ?? ""} />

        <PostLanguageTabs
          tab={tab}
          setTab={setTab}
          hydrated={hydrated}
          values={values}
          errors={errors}
          set={set}
          setTitle={setTitle}
          setSlug={setSlug}
        />

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

        <PostAccessField
          visibility={values.visibility}
          groupIds={values.group_ids}
          groups={props.groups}
          errors={errors}
          onChange={(visibility, groupIds) => setValues((current) => ({ ...current, visibility, group_ids: groupIds }))}
        />

        <PostActions
          post={post}
          status={status}
          autosave={draft.state}
          dirty={draft.dirty}
          busy={busy}
          zone={zone}
          scheduledLocal={scheduledLocal}
          previewLinks={props.previewLinks}
          errors={errors}
          onDelete={() => {
            setSubmitting(true);
            submit({ intent: "delete" }, { method: "post", action: `/admin/posts/${post?.id}` });
          }}
        />
      </Form>
      <div className="mt-6">
        <PostShareLinks postId={post?.id ?? null} />
      </div>
      <p className="mt-6">
        <Link to="/admin/posts" className="text-sm font-medium text-indigo-700 underline dark:text-indigo-300">
          {t("admin.posts.editor.back")}
        </Link>
      </p>
      <UnsavedChangesPrompt dirty={draft.dirty && !submitting} onDiscard={() => setValues(props.serverValues)} />
    </div>
  );
}
