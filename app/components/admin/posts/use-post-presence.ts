import { useEffect, useRef, useState } from "react";
import { type EditorPresence, PRESENCE_HEARTBEAT_MS } from "#app/domains/posts/post-editor-form.ts";
import { useLiveChanges } from "#app/web/live/live-hooks.ts";

function presenceForm(intent: "here" | "leave", tab: string): FormData {
  const form = new FormData();
  form.set("intent", intent);
  form.set("tab", tab);
  return form;
}

type Order = { asked: number; taken: number };

/** Whether the answer to `question` is the newest yet (it is then taken): none asked after it was answered first. */
function isLatest(order: Order, question: number): boolean {
  if (question < order.taken) return false;
  order.taken = question;
  return true;
}

/**
 * Who else has this post open in the editor: this tab says it is there on opening and every heartbeat (the
 * answer lists the others), says it leaves when it closes or goes elsewhere, and asks again when the live stream
 * says someone came or went. Without a connection the heartbeat alone keeps the list at most 20 s behind.
 */
export function usePostPresence(postId: string | null): EditorPresence[] {
  const [others, setOthers] = useState<EditorPresence[]>([]);
  const tab = useRef<string | null>(null);
  // Answers are taken in the order they were asked: a heartbeat's answer that comes after a later question's (a
  // busy server) is older, and would bring back someone who has left until the next heartbeat, 20 s later.
  const order = useRef<Order>({ asked: 0, taken: 0 });
  const address = postId ? `/admin/posts/${postId}/presence` : null;

  useEffect(() => {
    if (!address) return;
    tab.current ??= crypto.randomUUID();
    const id = tab.current;
    let open = true;
    const here = async () => {
      try {
        const question = ++order.current.asked;
        const response = await fetch(address, {
          method: "POST",
          body: presenceForm("here", id),
          headers: { Accept: "application/json" },
        });
        const answer = (await response.json()) as { others?: EditorPresence[] };
        if (open && response.ok && isLatest(order.current, question)) setOthers(answer.others ?? []);
      } catch {
        // Offline: the next heartbeat tries again.
      }
    };
    void here();
    const timer = window.setInterval(() => void here(), PRESENCE_HEARTBEAT_MS);
    // A beacon still goes when the tab is closing; a fetch may not.
    const leave = () => navigator.sendBeacon(address, presenceForm("leave", id));
    window.addEventListener("pagehide", leave);
    return () => {
      open = false;
      window.clearInterval(timer);
      window.removeEventListener("pagehide", leave);
      leave();
    };
  }, [address]);

  useLiveChanges(
    (events) => {
      if (!address || !tab.current || !events.some((event) => event.id === postId)) return;
      const id = tab.current;
      void (async () => {
        try {
          const question = ++order.current.asked;
          const response = await fetch(`${address}?tab=${encodeURIComponent(id)}`, {
            headers: { Accept: "application/json" },
          });
          const answer = (await response.json()) as { others?: EditorPresence[] };
          if (response.ok && tab.current === id && isLatest(order.current, question)) setOthers(answer.others ?? []);
        } catch {
          // The heartbeat tells again.
        }
      })();
    },
    ["presence"],
  );

  return others;
}
