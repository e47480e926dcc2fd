import { ShareLinks } from "#app/components/admin/share-links.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/** A post's share links (issue 21), in its editor. */
export function PostShareLinks({ postId }: { postId: string | null }) {
  const t = useAdminTranslate();
  return <ShareLinks path={postId ? `/admin/posts/${postId}/shares` : null} intro={t("admin.shares.intro")} />;
}
