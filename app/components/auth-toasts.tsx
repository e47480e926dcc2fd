import { useEffect } from "react";
import { Toaster, toast } from "sonner";
import type { Theme } from "#app/lib/preferences.ts";
import type { AuthToast } from "#app/web/auth-actions.server.ts";

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
