import { useEffect, useRef, useState } from "react";
import type { PostConflict, PostFormValues } from "#app/domains/posts/post-editor-form.ts";
import { useLiveChanges } from "#app/web/live/live-hooks.ts";

const same = (a: PostFormValues, b: PostFormValues) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Watches the post being edited for saves made elsewhere (another admin, another tab): when the live stream says
 * the post changed, it reads the stored post (JSON, so the text being typed is not replaced) and, if it is newer
 * than the text's base and differs from it, reports the conflict, or, when nothing here is unsaved, takes the
 * stored text in place (there is nothing to lose). The editor's own saves move `base` first; while one is under
 * way the check waits, so an own save is never mistaken for someone else's.
 */
export function usePostConflict(options: {
  postId: string | null;
  base: string;
  values: PostFormValues;
  /** Whether the editor holds changes the server does not have. */
  dirty: boolean;
  saving: boolean;
  onConflict: (conflict: PostConflict) => void;
  /** The stored post replaces the editor's text (nothing unsaved here), or only its base (the same text). */
  onStored: (stored: PostConflict) => void;
}): void {
  const [pending, setPending] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const { postId, saving } = options;

  useLiveChanges(
    (events) => {
      if (postId && events.some((event) => event.id === postId)) setPending(true);
    },
    ["posts"],
  );

  // Unmounted (the editor opened afresh): a check under way reports to nobody. Not the effect's own cleanup,
  // which runs as soon as `pending` is cleared and would drop every answer.
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  useEffect(() => {
    if (!pending || saving || !postId) return;
    setPending(false);
    void (async () => {
      try {
        const response = await fetch(`/admin/posts/${postId}/state`, { headers: { Accept: "application/json" } });
        if (!response.ok || !mounted.current) return;
        const stored = (await response.json()) as PostConflict;
        const now = latest.current;
        if (!mounted.current || stored.updatedAt === now.base) return;
        // An own save began meanwhile: it will move the base; look again once it is done.
        if (now.saving) {
          setPending(true);
          return;
        }
        if (!now.dirty || same(stored.values, now.values)) now.onStored(stored);
        else now.onConflict(stored);
      } catch {
        // Offline: the next change event (or the save's own check on the server) tells again.
      }
    })();
  }, [pending, saving, postId]);
}
