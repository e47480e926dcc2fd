import { CalendarClock, Eye, Save, Send, Trash2, Undo2 } from "lucide-react";
import { useState } from "react";
import { buttonClass } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import type { AdminPost } from "#app/domains/posts/post-rows.server.ts";
import type { PostStatus } from "#app/domains/posts/post-schema.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { useFormatTime } from "./local-time.tsx";
import { PostStatusBadge } from "./post-status-badge.tsx";
import type { AutosaveState } from "./use-post-draft.ts";

/** The editor's state line and buttons: save, publish, unpublish, schedule, preview and delete (asked first). */
export function PostActions({
  post,
  status,
  autosave,
  dirty,
  busy,
  zone,
  scheduledLocal,
  previewLinks,
  errors,
  onDelete,
}: {
  post: AdminPost | null;
  status: PostStatus;
  autosave: AutosaveState;
  dirty: boolean;
  busy: boolean;
  zone: string | null;
  scheduledLocal: string;
  previewLinks: { en: string; de: string } | null;
  errors: Record<string, string>;
  onDelete: () => void;
}) {
  const t = useAdminTranslate();
  const formatTime = useFormatTime();
  const [confirmDelete, setConfirmDelete] = useState(false);
  return (
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
      <AutosaveStatus state={autosave} dirty={dirty} />

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
          <button type="submit" name="intent" value="unpublish" className={buttonClass("secondary")} disabled={busy}>
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

      {post && previewLinks ? (
        <div className="mt-4">
          <div className="flex flex-wrap gap-2">
            <a href={previewLinks.en} target="_blank" rel="noopener" className={buttonClass("ghost", "sm")}>
              <Eye aria-hidden="true" className="size-4" />
              {t("admin.posts.previewAsVisitor")}
            </a>
            <a href={previewLinks.de} target="_blank" rel="noopener" className={buttonClass("ghost", "sm")}>
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
            onConfirm={onDelete}
          />
        </div>
      ) : null}
    </fieldset>
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
    case "conflict":
      text = t("admin.posts.autosave.conflict");
      warn = true;
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
