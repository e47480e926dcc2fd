import { ConflictChoice } from "#app/components/admin/notice-panel.tsx";
import { POST_FORM_FIELDS, type PostConflict, type PostFormField } from "#app/domains/posts/post-editor-form.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { useFormatTime } from "./local-time.tsx";
import type { PostFormValues } from "./use-post-draft.ts";

/** Each field's label in the comparison ("see both"); German fields say so. */
const FIELD_LABELS: Record<PostFormField, AdminMessageKey> = {
  title: "admin.posts.field.title",
  title_de: "admin.posts.field.title",
  slug: "admin.posts.field.slug",
  slug_de: "admin.posts.field.slug",
  excerpt: "admin.posts.field.excerpt",
  excerpt_de: "admin.posts.field.excerpt",
  body: "admin.posts.field.body",
  body_de: "admin.posts.field.body",
  cover_image_id: "admin.posts.conflict.cover",
  cover_alt: "admin.posts.field.coverAlt",
  cover_alt_de: "admin.posts.field.coverAlt",
  tags: "admin.posts.field.tags",
  visibility: "admin.posts.access.legend",
  group_ids: "admin.posts.access.groupsLegend",
};

/** The fields in which the two texts differ, in the form's order. */
export function differingFields(mine: PostFormValues, theirs: PostFormValues): PostFormField[] {
  return POST_FORM_FIELDS.filter((field) => mine[field] !== theirs[field]);
}

/**
 * Says that the post was saved elsewhere while it was being edited here, and lets the admin choose: keep mine (the
 * next save replaces theirs), take theirs (this editor's changes are dropped), or see both side by side first.
 * Nothing is chosen for them: until they choose, nothing is saved by itself.
 */
export function PostConflictBanner({
  conflict,
  mine,
  onKeepMine,
  onTakeTheirs,
}: {
  conflict: PostConflict;
  mine: PostFormValues;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const t = useAdminTranslate();
  const formatTime = useFormatTime();
  const labelOf = (field: PostFormField) =>
    field.endsWith("_de") ? `${t(FIELD_LABELS[field])} (DE)` : t(FIELD_LABELS[field]);
  const fields = differingFields(mine, conflict.values).map((field) => ({
    key: field,
    label: labelOf(field),
    mine: mine[field],
    theirs: conflict.values[field],
  }));
  return (
    <ConflictChoice
      text={t("admin.posts.conflict.text", { time: formatTime(conflict.updatedAt) })}
      fields={fields}
      onKeepMine={onKeepMine}
      onTakeTheirs={onTakeTheirs}
    />
  );
}
