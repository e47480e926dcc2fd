import { useEffect } from "react";
import { Toaster, toast } from "sonner";
import type { Theme } from "#app/lib/preferences.ts";

/** A message of the sign-in and recovery pages (their actions make it, see app/web/auth-actions.server.ts). */
export type AuthToast = { kind: "success" | "error"; title: string; description: string };

/**
 * The sign-in page's toasts. Loaded only once there is something to say (see auth.tsx), so that a visitor who
 * merely opens the page does not download the toast library.
 */
export default function AuthToasts({ message, theme }: { message: AuthToast; theme: Theme }) {
  useEffect(() => {
    // The Toaster below has subscribed by now: a child's effects run before its parent's.
    if (message.kind === "success") toast.success(message.title, { description: message.description });
    else toast.error(message.title, { description: message.description });
  }, [message]);
  return <Toaster theme={theme} position="bottom-right" richColors closeButton />;
}
