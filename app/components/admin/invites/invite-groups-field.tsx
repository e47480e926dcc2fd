import { Link } from "react-router";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * The groups a new code gives (issue 21). Every box is named `group_ids` and sends its own value, so the form
 * works without JavaScript and a reset (after the codes are made) clears them; the route reads every value.
 */
export function InviteGroupsField({
  idPrefix,
  groups,
  error,
}: {
  /** Two forms on the screen offer groups: their ids must not meet. */
  idPrefix: string;
  groups: { id: string; name: string }[];
  error?: string | undefined;
}) {
  const t = useAdminTranslate();
  const hintId = `${idPrefix}-groups-hint`;
  const errorId = `${idPrefix}-groups-error`;
  return (
    <fieldset aria-describedby={error ? `${hintId} ${errorId}` : hintId} className="min-w-0">
      <legend className="text-sm font-medium">{t("admin.invites.groups")}</legend>
      <p id={hintId} className="text-sm text-zinc-600 dark:text-zinc-300">
        {t("admin.invites.groupsHint")}
      </p>
      {groups.length === 0 ? (
        <p className="mt-1 text-sm">
          <Link to="/admin/groups" className="underline">
            {t("admin.invites.noGroupChoices")}
          </Link>
        </p>
      ) : (
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {groups.map((group) => (
            <label key={group.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="group_ids"
                value={group.id}
                aria-invalid={error ? true : undefined}
                className="size-4 rounded border-zinc-400 accent-indigo-700"
              />
              {group.name}
            </label>
          ))}
        </div>
      )}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
