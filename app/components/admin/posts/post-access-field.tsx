import { AccessField } from "#app/components/admin/access-field.tsx";
import type { ContentVisibility } from "#app/domains/access/reader.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/** Who may see the post (issue 21): the shared access field in the post editor's words. */
export function PostAccessField(props: {
  visibility: string;
  groupIds: string;
  groups: { id: string; name: string }[];
  errors: Record<string, string>;
  onChange: (visibility: ContentVisibility, groupIds: string) => void;
}) {
  const t = useAdminTranslate();
  return (
    <AccessField words="admin.posts.access" idPrefix="post-access" note={t("admin.posts.access.note")} {...props} />
  );
}
