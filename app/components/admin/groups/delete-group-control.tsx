import { Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Button, buttonClass } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

type Group = { id: string; name: string; memberCount: number; contentCount: number };

/**
 * Deleting a group, asked first with what it does to the content restricted to it. With JavaScript the site's
 * confirmation dialog; without (and until the page is hydrated) a disclosure that shows the same warning above a
 * plain form's button, so the question is asked either way.
 */
export function DeleteGroupControl({ group, onDelete }: { group: Group; onDelete: (groupId: string) => void }) {
  const t = useAdminTranslate();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const label = t("admin.groups.delete", { name: group.name });
  const warning = t("admin.groups.deleteText", { members: group.memberCount, content: group.contentCount });
  const face = (
    <>
      <Trash2 aria-hidden="true" className="size-4" />
      <span aria-hidden="true">{t("admin.common.delete")}</span>
    </>
  );
  if (!hydrated) {
    return (
      <details className="max-w-md">
        <summary aria-label={label} className={buttonClass("dangerOutline", "sm", "cursor-pointer list-none")}>
          {face}
        </summary>
        <form method="post" className="mt-2 rounded-md border border-red-300 p-3 dark:border-red-800">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="groupId" value={group.id} />
          <p className="text-sm text-zinc-700 dark:text-zinc-200">{warning}</p>
          <button type="submit" className={buttonClass("danger", "sm", "mt-3")}>
            {t("admin.groups.deleteConfirm")}
          </button>
        </form>
      </details>
    );
  }
  return (
    <ConfirmDialog
      trigger={
        <Button variant="dangerOutline" size="sm" aria-label={label}>
          {face}
        </Button>
      }
      title={t("admin.groups.deleteTitle", { name: group.name })}
      description={warning}
      confirmLabel={t("admin.groups.deleteConfirm")}
      cancelLabel={t("admin.common.cancel")}
      onConfirm={() => onDelete(group.id)}
    />
  );
}
