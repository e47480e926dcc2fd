import type { ContentVisibility } from "#app/domains/access/reader.ts";
import { useTranslate } from "#app/web/root-data.ts";

/**
 * Whom a restricted album is for, as a signed-in reader who may see it is told: "Members", or its groups (a member is
 * given only the names of their own). Nothing for an album for everyone. The words of a post's badge (PostMeta).
 */
export function AlbumBadge(props: { visibility: ContentVisibility; groups: readonly string[] }) {
  const t = useTranslate();
  const label =
    props.visibility === "members"
      ? t("access.members")
      : props.visibility === "groups" && props.groups.length > 0
        ? t("access.groups", { groups: props.groups.join(", ") })
        : null;
  return label ? <span className="access-badge">{label}</span> : null;
}
