import { useState } from "react";
import { useFetcher } from "react-router";
import { GroupChoices } from "#app/components/admin/group-choices.tsx";
import { SharedCacheHint } from "#app/components/admin/shared-cache-hint.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { CONTENT_VISIBILITIES, type ContentVisibility } from "#app/domains/access/reader.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/** The texts of one editor's access form (each kind says "picture" or "video" in its own words). */
export type AccessFormTexts = Record<
  ContentVisibility | "legend" | "groupsLegend" | "noGroups" | "note" | "save",
  AdminMessageKey
>;

/**
 * Who may see an item (issue 21), saved on its own (`intent=access`) beside the item's editor: a change between
 * everyone and restricted moves the item's files, which the note says. The chosen groups travel as one
 * comma-separated field, kept by the checkboxes. Used by the gallery's and the videos' editors.
 */
export function ItemAccessForm(props: {
  /** The prefix of the groups' element ids: "picture", "video". */
  kind: string;
  item: { id: string; visibility: ContentVisibility; groupIds: readonly string[] };
  name: string;
  groups: { id: string; name: string }[];
  texts: AccessFormTexts;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  const result = useResultToast(fetcher.data, t("admin.common.error"));
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const [visibility, setVisibility] = useState<ContentVisibility>(props.item.visibility);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set(props.item.groupIds));
  const toggle = (id: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <fetcher.Form method="post" className="mt-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <input type="hidden" name="intent" value="access" />
      <input type="hidden" name="id" value={props.item.id} />
      <input type="hidden" name="name" value={props.name} />
      <input type="hidden" name="group_ids" value={visibility === "groups" ? [...chosen].sort().join(",") : ""} />
      <fieldset>
        <legend className="text-sm font-semibold">{t(props.texts.legend)}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {CONTENT_VISIBILITIES.map((choice) => (
            <label key={choice} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="visibility"
                value={choice}
                checked={visibility === choice}
                onChange={() => setVisibility(choice)}
                className="size-4 accent-indigo-700"
              />
              {t(props.texts[choice])}
            </label>
          ))}
        </div>
        {errors.visibility ? <p className="mt-1 text-sm text-red-700 dark:text-red-300">{errors.visibility}</p> : null}
      </fieldset>
      {visibility === "groups" ? (
        <GroupChoices
          id={`${props.kind}-${props.item.id}-groups`}
          legend={t(props.texts.groupsLegend)}
          noGroups={t(props.texts.noGroups)}
          groups={props.groups}
          chosen={chosen}
          onToggle={toggle}
          error={errors.group_ids}
        />
      ) : null}
      <p className="mt-3 text-xs text-zinc-600 dark:text-zinc-300">{t(props.texts.note)}</p>
      {visibility !== "everyone" ? <SharedCacheHint /> : null}
      <div className="mt-3 flex justify-end">
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {fetcher.state === "idle" ? t(props.texts.save) : t("admin.common.saving")}
        </Button>
      </div>
    </fetcher.Form>
  );
}
