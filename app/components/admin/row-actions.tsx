import { Pencil, Trash2 } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * The edit and delete buttons of one row in an admin list: edit opens or closes the row's editor, delete asks
 * first. The labels name the row, since every row has the same two buttons.
 */
export function EditDeleteActions(props: {
  /** The row's name, for the confirmation's title. */
  name: string;
  editing: boolean;
  onToggleEdit: () => void;
  editLabel: string;
  /** The id of the editor the edit button opens, when it is always in the page while open. */
  editorId?: string;
  deleteLabel: string;
  deleteText: string;
  onDelete: () => void;
  /** While a write of this row is under way, delete waits. */
  busy?: boolean;
}) {
  const t = useAdminTranslate();
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        aria-expanded={props.editing}
        aria-controls={props.editorId}
        aria-label={props.editLabel}
        onClick={props.onToggleEdit}
      >
        <Pencil aria-hidden="true" className="size-4" />
        {t("admin.common.edit")}
      </Button>
      <ConfirmDialog
        trigger={
          <Button size="sm" variant="dangerOutline" disabled={props.busy} aria-label={props.deleteLabel}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t("admin.common.delete")}
          </Button>
        }
        title={t("admin.common.confirmDelete", { name: props.name })}
        description={props.deleteText}
        confirmLabel={t("admin.common.delete")}
        cancelLabel={t("admin.common.cancel")}
        onConfirm={props.onDelete}
      />
    </>
  );
}
