import { Eye, EyeOff } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useActionData, useFetcher } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { CheckboxField, TextAreaField, TextField } from "#app/components/ui/field.tsx";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { EditDeleteActions } from "./row-actions.tsx";
import { SortableList } from "./sortable-list.tsx";
import { useResultToast } from "./use-result-toast.ts";

/** One row of a content screen: the form values keyed by field name, plus how the list shows it. */
export type ContentItem = {
  id: string;
  active: boolean;
  /** The item's name in the list, the buttons' labels and the confirmation. */
  name: string;
  /** Extra line under the name (a URL, the answer's start, the video's source). */
  detail?: string;
  /** Shown before the name (a link's icon, a video's poster). */
  preview?: ReactNode;
  values: Record<string, string>;
};

export type FieldErrors = Record<string, string> | undefined;

/**
 * The per-area form fields; `values` are the item's (empty for a new one), `suggestions` what the server offers
 * instead of a refused value (an address completed with https://).
 */
export type RenderFields = (
  values: Record<string, string>,
  errors: FieldErrors,
  suggestions?: Record<string, string>,
) => ReactNode;

function errorsOf(result: ActionResult | undefined): FieldErrors {
  return result && !result.ok ? result.fieldErrors : undefined;
}

/**
 * A text in English and German side by side: `name` and `name_de`. An empty German text falls back to the
 * English one on the site, which the German field's hint says.
 */
export function BilingualField(props: {
  name: string;
  label: string;
  values: Record<string, string>;
  errors: FieldErrors;
  multiline?: boolean;
  required?: boolean;
  hint?: string;
  rows?: number;
}) {
  const t = useAdminTranslate();
  const germanName = `${props.name}_de`;
  const Field = props.multiline ? TextAreaField : TextField;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Field
        name={props.name}
        label={t("admin.content.inEnglish", { label: props.label })}
        defaultValue={props.values[props.name] ?? ""}
        error={props.errors?.[props.name]}
        hint={props.hint}
        required={props.required}
        rows={props.multiline ? (props.rows ?? 4) : undefined}
      />
      <Field
        name={germanName}
        lang="de"
        label={t("admin.content.inGerman", { label: props.label })}
        defaultValue={props.values[germanName] ?? ""}
        error={props.errors?.[germanName]}
        hint={props.hint ? `${props.hint} ${t("admin.common.germanFallback")}` : t("admin.common.germanFallback")}
        rows={props.multiline ? (props.rows ?? 4) : undefined}
      />
    </div>
  );
}

function ItemForm(props: {
  intent: "create" | "update";
  id?: string;
  values: Record<string, string>;
  active: boolean;
  renderFields: RenderFields;
  submitLabel: string;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  // Without JavaScript the form posts the page: a refused new item comes back as the page's own answer.
  const pageAnswer = useActionData<ActionResult>();
  const refusedNew =
    props.intent === "create" && fetcher.data === undefined && pageAnswer && !pageAnswer.ok && pageAnswer.values
      ? pageAnswer
      : undefined;
  const result = useResultToast(fetcher.data, t("admin.common.error")) ?? refusedNew;
  const [formKey, setFormKey] = useState(0);
  const busy = fetcher.state !== "idle";
  const { onSaved } = props;

  useEffect(() => {
    if (!result?.ok) return;
    // A new item's form starts empty again; an edited one closes.
    setFormKey((key) => key + 1);
    onSaved?.();
  }, [result, onSaved]);

  return (
    <fetcher.Form key={formKey} method="post" className="space-y-4" noValidate>
      <input type="hidden" name="intent" value={props.intent} />
      {props.id ? <input type="hidden" name="id" value={props.id} /> : null}
      {props.renderFields(
        refusedNew?.values ?? props.values,
        errorsOf(result),
        result && !result.ok ? result.suggestions : undefined,
      )}
      <CheckboxField
        name="active"
        label={t("admin.common.published")}
        hint={t("admin.content.publishedHint")}
        defaultChecked={props.active}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? t("admin.common.saving") : props.submitLabel}
        </Button>
        {props.onCancel ? (
          <Button variant="secondary" onClick={props.onCancel}>
            {t("admin.common.cancel")}
          </Button>
        ) : null}
      </div>
    </fetcher.Form>
  );
}

function ItemRow({
  item,
  renderFields,
  renderExtra,
  onDelete,
}: {
  item: ContentItem;
  renderFields: RenderFields;
  renderExtra?: (item: ContentItem) => ReactNode;
  onDelete: (id: string) => void;
}) {
  const t = useAdminTranslate();
  const [editing, setEditing] = useState(false);
  const toggle = useFetcher<ActionResult>();
  useResultToast(toggle.data, t("admin.common.error"));
  const name = item.name || t("admin.common.untitled");
  const editId = `edit-${item.id}`;
  const closeEditor = () => setEditing(false);

  return (
    <div>
      <div className="flex flex-wrap items-center gap-3">
        {item.preview}
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium">{name}</p>
          {item.detail ? <p className="truncate text-sm text-zinc-600 dark:text-zinc-300">{item.detail}</p> : null}
        </div>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${
            item.active
              ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
              : "bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200"
          }`}
        >
          {item.active ? t("admin.common.published") : t("admin.common.unpublished")}
        </span>
        <toggle.Form method="post">
          <input type="hidden" name="intent" value="toggle" />
          <input type="hidden" name="id" value={item.id} />
          <input type="hidden" name="active" value={item.active ? "false" : "true"} />
          <Button
            type="submit"
            size="sm"
            variant="secondary"
            aria-label={t(item.active ? "admin.content.hide" : "admin.content.publish", { name })}
          >
            {item.active ? (
              <EyeOff aria-hidden="true" className="size-4" />
            ) : (
              <Eye aria-hidden="true" className="size-4" />
            )}
            {t(item.active ? "admin.content.hideShort" : "admin.content.publishShort")}
          </Button>
        </toggle.Form>
        <EditDeleteActions
          name={name}
          editing={editing}
          onToggleEdit={() => setEditing((open) => !open)}
          editLabel={t("admin.content.editItem", { name })}
          editorId={editId}
          deleteLabel={t("admin.content.deleteItem", { name })}
          deleteText={t("admin.common.confirmDeleteText")}
          onDelete={() => onDelete(item.id)}
        />
      </div>
      {editing ? (
        <div id={editId} className="mt-4 rounded-lg border border-zinc-200 p-4 dark:border-zinc-700">
          <ItemForm
            intent="update"
            id={item.id}
            values={item.values}
            active={item.active}
            renderFields={renderFields}
            submitLabel={t("admin.common.save")}
            onSaved={closeEditor}
            onCancel={closeEditor}
          />
          {renderExtra?.(item)}
        </div>
      ) : null}
    </div>
  );
}

/**
 * The screen shared by links, FAQ and videos: a form to add an item, then every item (inactive ones too)
 * in display order, each with show/hide, edit, delete (asked first) and reordering.
 */
export function ContentAdmin(props: {
  heading: string;
  intro: string;
  addHeading: string;
  listLabel: string;
  emptyText: string;
  items: ContentItem[];
  renderFields: RenderFields;
  /** More ways to add an item (the video upload form), after the add form. */
  extraAdd?: ReactNode;
  /** More controls in an item's edit panel, outside its form (a video's poster upload). */
  renderExtra?: (item: ContentItem) => ReactNode;
}) {
  const t = useAdminTranslate();
  const reorder = useFetcher<ActionResult>();
  // Here and not in the row: the row is gone once the delete has been answered, its toast must not be.
  const remove = useFetcher<ActionResult>();
  useResultToast(reorder.data, t("admin.common.error"));
  useResultToast(remove.data, t("admin.common.error"));
  const onDelete = (id: string) => remove.submit({ intent: "delete", id }, { method: "post" });
  const byId = new Map(props.items.map((item) => [item.id, item]));

  return (
    <div className="space-y-10">
      <header>
        <h1 className="text-3xl font-bold tracking-tight">{props.heading}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{props.intro}</p>
      </header>
      <section aria-labelledby="add-heading" className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
        <h2 id="add-heading" className="mb-4 text-xl font-semibold">
          {props.addHeading}
        </h2>
        <ItemForm
          intent="create"
          values={{}}
          active={true}
          renderFields={props.renderFields}
          submitLabel={t("admin.common.add")}
        />
      </section>
      {props.extraAdd}
      <section aria-labelledby="list-heading">
        <h2 id="list-heading" className="text-xl font-semibold">
          {props.listLabel}
        </h2>
        {props.items.length === 0 ? (
          <p className="mt-4 text-zinc-600 dark:text-zinc-300">{props.emptyText}</p>
        ) : (
          <>
            <p className="mb-4 mt-1 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.content.orderHint")}</p>
            <SortableList
              items={props.items}
              label={props.listLabel}
              nameOf={(item) => item.name || t("admin.common.untitled")}
              renderItem={(item) => (
                <ItemRow
                  item={byId.get(item.id) ?? item}
                  renderFields={props.renderFields}
                  renderExtra={props.renderExtra}
                  onDelete={onDelete}
                />
              )}
              onReorder={(ids) => reorder.submit({ intent: "reorder", ids: ids.join(",") }, { method: "post" })}
            />
          </>
        )}
      </section>
    </div>
  );
}
