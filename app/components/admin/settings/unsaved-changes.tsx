import { useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * Asks before edits are lost: leaving for another page or section of the site (React Router's blocker: "stay" or
 * "discard"), and closing or reloading the tab (the browser's own question, the only one a page may ask then).
 */
export function UnsavedChangesPrompt({ dirty, onDiscard }: { dirty: boolean; onDiscard: () => void }) {
  const t = useAdminTranslate();
  // The dialog closes after "discard" too: that close must not take the navigation back.
  const proceeding = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (blocker.state === "unblocked") proceeding.current = false;
  }, [blocker.state]);

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty]);

  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      onOpenChange={(open) => {
        if (!open && blocker.state === "blocked" && !proceeding.current) blocker.reset();
      }}
      title={t("admin.settings.unsaved.title")}
      description={t("admin.settings.unsaved.text")}
      cancelLabel={t("admin.settings.unsaved.stay")}
      confirmLabel={t("admin.settings.unsaved.discard")}
      onConfirm={() => {
        if (blocker.state !== "blocked") return;
        proceeding.current = true;
        onDiscard();
        blocker.proceed();
      }}
    />
  );
}
