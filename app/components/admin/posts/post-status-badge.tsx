import type { PostStatus } from "#app/domains/posts/post-schema.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

const STYLES: Record<PostStatus, string> = {
  draft: "border-zinc-400 text-zinc-800 dark:border-zinc-500 dark:text-zinc-200",
  scheduled: "border-amber-600 text-amber-900 dark:border-amber-400 dark:text-amber-200",
  published: "border-emerald-700 text-emerald-900 dark:border-emerald-400 dark:text-emerald-200",
};

/** A post's status in the admin's language; a scheduled post whose time has come reads as published. */
export function PostStatusBadge({ status, visible }: { status: PostStatus; visible: boolean }) {
  const t = useAdminTranslate();
  const shown: PostStatus = status === "scheduled" && visible ? "published" : status;
  return (
    <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-medium ${STYLES[shown]}`}>
      {t(`admin.posts.status.${shown}`)}
    </span>
  );
}
