import { useFetcher } from "react-router";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * An account's groups on the Users screen: a checkbox per group and a save button, a plain form without JavaScript
 * (each box is its own field, `group.<id>`, so the form reader needs no lists). Saving replaces the account's groups.
 */
export function UserGroupsForm(props: {
  user: { id: string; email: string };
  groups: { id: string; name: string }[];
  memberOf: readonly string[];
}) {
  const { user, groups } = props;
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.data, t("admin.common.error"));
  if (groups.length === 0)
    return <p className="text-sm text-zinc-600 dark:text-zinc-300">{t("admin.users.noGroups")}</p>;
  const memberOf = new Set(props.memberOf);
  return (
    // Keyed by the stored groups: once saved (or changed elsewhere), the boxes start again from what is stored.
    <fetcher.Form key={props.memberOf.join(",")} method="post" className="flex flex-col items-start gap-2">
      <input type="hidden" name="intent" value="setGroups" />
      <input type="hidden" name="userId" value={user.id} />
      <fieldset>
        <legend className="sr-only">{t("admin.users.groupsOf", { email: user.email })}</legend>
        <ul className="flex flex-col gap-1">
          {groups.map((group) => (
            <li key={group.id}>
              <label className="inline-flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name={`group.${group.id}`}
                  defaultChecked={memberOf.has(group.id)}
                  className="size-4 accent-indigo-700 dark:accent-indigo-400"
                />
                <span className="break-all">{group.name}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <Button
        type="submit"
        variant="secondary"
        size="sm"
        aria-label={t("admin.users.saveGroupsLabel", { email: user.email })}
        disabled={fetcher.state !== "idle"}
      >
        {t("admin.users.saveGroups")}
      </Button>
    </fetcher.Form>
  );
}
