import { Users } from "lucide-react";
import type { EditorPresence } from "#app/domains/posts/post-editor-form.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * Who else has this post open in the editor, in a polite live region (there before anyone comes, so that an
 * arrival is announced): the names, or "you, in another tab".
 */
export function PostPresenceNote({ others }: { others: EditorPresence[] }) {
  const t = useAdminTranslate();
  const names = others.map((other) => (other.you ? t("admin.posts.presence.you") : other.name));
  return (
    <p
      role="status"
      className={names.length > 0 ? "mb-4 flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-200" : "sr-only"}
    >
      {names.length > 0 ? (
        <>
          <Users aria-hidden="true" className="size-4 shrink-0" />
          {t("admin.posts.presence.others", { names: names.join(", ") })}
        </>
      ) : null}
    </p>
  );
}
