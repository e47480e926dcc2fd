import { useCallback, useEffect, useRef, useState } from "react";
import type { EditorResult, PostConflict, PostFormValues } from "#app/domains/posts/post-editor-form.ts";

/** How long the editor waits after the last change before it saves a draft by itself. */
export const AUTOSAVE_DELAY_MS = 3000;
/** After a failed save (no connection), the next try; the browser's "online" event tries at once. */
const RETRY_MS = 10_000;

/** The editor's form values, for the editor's parts (the type is the route's; read here so components import the edge once). */
export type { PostFormValues };

/** The browser's copy of a post's unsaved text: kept until the server has confirmed the same text. */
export type LocalCopy = { values: PostFormValues; postId: string | null; savedAt: number };

export function localCopyKey(postId: string | null): string {
  return `vitrine.post-editor:${postId ?? "new"}`;
}

export function readLocalCopy(postId: string | null): LocalCopy | null {
  try {
    const text = window.localStorage.getItem(localCopyKey(postId));
    if (!text) return null;
    const copy = JSON.parse(text) as LocalCopy;
    return copy && typeof copy.savedAt === "number" && copy.values ? copy : null;
  } catch {
    return null;
  }
}

function writeLocalCopy(postId: string | null, copy: LocalCopy | null) {
  try {
    if (copy) window.localStorage.setItem(localCopyKey(postId), JSON.stringify(copy));
    else window.localStorage.removeItem(localCopyKey(postId));
  } catch {
    // Storage full or refused (private mode): the server copy and the unload prompt remain.
  }
}

export type AutosaveState =
  | { kind: "idle" }
  | { kind: "waiting" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "offline" }
  | { kind: "refused"; message: string }
  /** Saved elsewhere meanwhile: nothing is saved by itself until the admin chooses whose text stays. */
  | { kind: "conflict" }
  /** A post visitors may see: nothing is saved by itself, the browser keeps the copy until the admin saves. */
  | { kind: "manual" }
  | { kind: "needsTitle" };

const same = (a: PostFormValues, b: PostFormValues) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Keeps a post's text safe while it is edited: every change goes into the browser's storage at once (until the
 * server has the same text), and a draft is saved to the server AUTOSAVE_DELAY_MS after the last change (the
 * post itself, not a copy: a draft is seen by no visitor, so there is nothing to keep apart). Published and
 * scheduled posts are not saved by themselves: visitors would see half-written changes; their text waits in
 * the browser until the admin presses Save.
 */
export function usePostDraft(options: {
  postId: string | null;
  autosave: boolean;
  values: PostFormValues;
  serverValues: PostFormValues;
  /** The `updatedAt` the text is based on (sent with each save, so one over a newer post is refused). */
  base: string;
  /** A conflict waits for the admin's choice: nothing is saved by itself meanwhile. */
  paused: boolean;
  /** One of the editor's buttons is saving: the draft's own save waits (both would name the same base). */
  holding: boolean;
  onSaved: (updatedAt: string) => void;
  onConflict: (conflict: PostConflict) => void;
}) {
  const [postId, setPostId] = useState(options.postId);
  const [confirmed, setConfirmed] = useState(options.serverValues);
  const [state, setState] = useState<AutosaveState>({ kind: "idle" });
  const [retry, setRetry] = useState(0);
  const inFlight = useRef(false);
  const latest = useRef(options);
  latest.current = options;
  const { values, autosave, paused, holding } = options;
  const dirty = !same(values, confirmed);

  // The browser's copy: written on every change while the server lacks it, removed once it has it.
  useEffect(() => {
    const timer = window.setTimeout(() => {
      writeLocalCopy(postId, dirty ? { values, postId, savedAt: Date.now() } : null);
      if (postId) writeLocalCopy(null, null);
    }, 200);
    return () => window.clearTimeout(timer);
  }, [values, postId, dirty]);

  const save = useCallback(
    async (sent: PostFormValues) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setState({ kind: "saving" });
      try {
        const body = new FormData();
        for (const [name, value] of Object.entries(sent)) body.set(name, value);
        body.set("post_id", postId ?? "");
        body.set("base_updated_at", latest.current.base);
        const response = await fetch("/admin/posts/autosave", {
          method: "POST",
          body,
          headers: { Accept: "application/json" },
        });
        const result = (await response.json().catch(() => null)) as EditorResult | null;
        if (!result) throw new Error(String(response.status));
        if (!result.ok && result.conflict) {
          setState({ kind: "conflict" });
          latest.current.onConflict(result.conflict);
          return;
        }
        if (!result.ok) {
          const detail = Object.values(result.fieldErrors)[0];
          setState({ kind: "refused", message: detail ?? result.message });
          return;
        }
        if (result.id && result.id !== postId) {
          // The first save of a new post: from now on it is that post's editor (and its address).
          setPostId(result.id);
          window.history.replaceState(window.history.state, "", `/admin/posts/${result.id}`);
        }
        if (result.updatedAt) latest.current.onSaved(result.updatedAt);
        setConfirmed(sent);
        setState({ kind: "saved", at: new Date().toISOString() });
      } catch {
        setState({ kind: "offline" });
        window.setTimeout(() => setRetry((count) => count + 1), RETRY_MS);
      } finally {
        inFlight.current = false;
      }
    },
    [postId],
  );

  useEffect(() => {
    const again = () => setRetry((count) => count + 1);
    window.addEventListener("online", again);
    return () => window.removeEventListener("online", again);
  }, []);

  // `retry` starts another try after a failure even when the text has not changed since; `confirmed` one for
  // what was typed while the last save was under way.
  // biome-ignore lint/correctness/useExhaustiveDependencies: retry and confirmed are triggers, not read
  useEffect(() => {
    if (paused) {
      setState({ kind: "conflict" });
      return;
    }
    if (!dirty || holding) return;
    if (!autosave) {
      setState({ kind: "manual" });
      return;
    }
    if (values.title.trim() === "") {
      setState({ kind: "needsTitle" });
      return;
    }
    setState((current) => (current.kind === "offline" ? current : { kind: "waiting" }));
    const timer = window.setTimeout(() => void save(values), AUTOSAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [values, dirty, autosave, paused, holding, save, retry, confirmed]);

  return { postId, dirty, state, markConfirmed: setConfirmed };
}
