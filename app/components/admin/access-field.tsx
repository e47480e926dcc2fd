import { CONTENT_VISIBILITIES, type ContentVisibility, isContentVisibility } from "#app/domains/access/reader.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { GroupChoices } from "./group-choices.tsx";
import { SharedCacheHint } from "./shared-cache-hint.tsx";

/** The editors whose words this field takes: `<prefix>.legend`, `.everyone`, `.everyoneHint`, … */
type AccessWords = "admin.posts.access" | "admin.albums.access";

/**
 * Who may see an item (issue 21): everyone, members, or chosen groups, in the post and album editors. The choice of
 * groups travels as one hidden field of comma-separated ids (the form's fields are one value each), kept by the
 * checkboxes.
 */
export function AccessField(props: {
  words: AccessWords;
  idPrefix: string;
  visibility: string;
  groupIds: string;
  groups: { id: string; name: string }[];
  errors: Record<string, string>;
  /** Shown while the item is restricted: what happens to its files. */
  note?: string;
  onChange: (visibility: ContentVisibility, groupIds: string) => void;
}) {
  const t = useAdminTranslate();
  const word = (suffix: string) => t(`${props.words}.${suffix}` as AdminMessageKey);
  const visibility: ContentVisibility = isContentVisibility(props.visibility) ? props.visibility : "everyone";
  const chosen = new Set(props.groupIds.split(",").filter(Boolean));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    props.onChange(visibility, [...next].sort().join(","));
  };
  return (
    <fieldset className="rounded-lg border border-zinc-200 px-4 py-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">{word("legend")}</legend>
      <input type="hidden" name="group_ids" value={visibility === "groups" ? [...chosen].sort().join(",") : ""} />
      <div className="grid gap-2">
        {CONTENT_VISIBILITIES.map((choice) => (
          <label key={choice} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="visibility"
              value={choice}
              checked={visibility === choice}
              onChange={() => props.onChange(choice, props.groupIds)}
              aria-describedby={`${props.idPrefix}-${choice}-hint`}
              className="mt-1 size-4 accent-indigo-700"
            />
            <span>
              <span className="font-medium">{word(choice)}</span>
              <span id={`${props.idPrefix}-${choice}-hint`} className="block text-xs text-zinc-600 dark:text-zinc-300">
                {word(`${choice}Hint`)}
              </span>
            </span>
          </label>
        ))}
      </div>
      {props.errors.visibility ? (
        <p className="mt-2 text-sm text-red-700 dark:text-red-300">{props.errors.visibility}</p>
      ) : null}
      {props.note && visibility !== "everyone" ? (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-300">{props.note}</p>
      ) : null}
      {visibility !== "everyone" ? <SharedCacheHint /> : null}
      {visibility === "groups" ? (
        <GroupChoices
          id={`${props.idPrefix}-groups`}
          legend={word("groupsLegend")}
          noGroups={word("noGroups")}
          groups={props.groups}
          chosen={chosen}
          onToggle={toggle}
          error={props.errors.group_ids}
        />
      ) : null}
    </fieldset>
  );
}
