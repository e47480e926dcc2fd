import type { ContentVisibility } from "#app/domains/access/reader.ts";
import { useTranslate } from "#app/web/root-data.ts";

type Access = { visibility: ContentVisibility; groups: readonly string[] };

/**
 * Whom a restricted post, album or video is for, as a signed-in reader who may see it is told: "Members", or its
 * groups (a member is given only the names of their own). Null for an item for everyone: only a reader who may see
 * a restricted item gets it at all, so the words never reach anyone else.
 */
export function useAccessLabel({ visibility, groups }: Access): string | null {
  const t = useTranslate();
  if (visibility === "members") return t("access.members");
  if (visibility === "groups" && groups.length > 0) return t("access.groups", { groups: groups.join(", ") });
  return null;
}

/** The label of `useAccessLabel` as a badge, or nothing for an item for everyone. */
export function AccessBadge(props: Access & { as?: "span" | "p" }) {
  const label = useAccessLabel(props);
  const Tag = props.as ?? "span";
  return label ? <Tag className="access-badge">{label}</Tag> : null;
}
