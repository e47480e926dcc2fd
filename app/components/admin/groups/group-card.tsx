import { UserMinus, UserPlus } from "lucide-react";
import { useId } from "react";
import { type FetcherWithComponents, useFetcher } from "react-router";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { inputClass, TextField } from "#app/components/ui/field.tsx";
import { GROUP_NAME_MAX } from "#app/domains/groups/group-schema.ts";
import type { ActionResult, Refused } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { DeleteGroupControl } from "./delete-group-control.tsx";

export type GroupView = {
  id: string;
  name: string;
  memberCount: number;
  contentCount: number;
  members: { id: string; email: string }[];
};
export type Account = { id: string; email: string };

/** A refused answer's field errors when it came from this form (`values` names it), else none. */
export function errorsFrom(answer: Refused | undefined, intent: string, groupId?: string): Record<string, string> {
  if (!answer?.values || answer.values.intent !== intent) return {};
  if (groupId !== undefined && answer.values.groupId !== groupId) return {};
  return answer.fieldErrors ?? {};
}

const refusedOf = (answer: unknown) =>
  typeof answer === "object" && answer !== null && "ok" in answer && answer.ok === false
    ? (answer as Refused)
    : undefined;

/**
 * One group: its name (renamed in place), its counts, delete, and its members with a way to add and remove one.
 * `pageAnswer` is the page's answer to a form posted without JavaScript; removals answer through `remover`, the
 * page's fetcher, since the row they came from is gone when the answer shows.
 */
export function GroupCard(props: {
  group: GroupView;
  accounts: Account[];
  pageAnswer: unknown;
  remover: FetcherWithComponents<ActionResult>;
  onDelete: (groupId: string) => void;
}) {
  const { group, accounts, remover } = props;
  const t = useAdminTranslate();
  const titleId = useId();
  const selectId = useId();
  const renamer = useFetcher<ActionResult>();
  const renamed = useResultToast(renamer.data, t("admin.common.error"));
  const adder = useFetcher<ActionResult>();
  useResultToast(adder.data, t("admin.common.error"));
  const pageRefusal = refusedOf(props.pageAnswer);
  const renameErrors = { ...errorsFrom(pageRefusal, "rename", group.id), ...errorsFrom(refusedOf(renamed), "rename") };
  const addErrors = {
    ...errorsFrom(pageRefusal, "addMember", group.id),
    ...errorsFrom(refusedOf(adder.data), "addMember"),
  };
  const memberIds = new Set(group.members.map((member) => member.id));
  const outside = accounts.filter((account) => !memberIds.has(account.id));
  const busy = remover.state !== "idle";
  return (
    <section aria-labelledby={titleId} className="rounded-xl border border-zinc-200 p-5 dark:border-zinc-800">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={titleId} className="text-lg font-semibold break-all">
          {group.name}
        </h3>
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          {t("admin.groups.memberCount", { count: group.memberCount })}
          {" · "}
          {t("admin.groups.contentCount", { count: group.contentCount })}
        </p>
      </div>

      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        {/* Keyed by the name: once renamed, the field starts again from the stored name. */}
        <renamer.Form key={group.name} method="post" className="flex flex-1 flex-col gap-3 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="rename" />
          <input type="hidden" name="groupId" value={group.id} />
          <TextField
            label={t("admin.groups.renameLabel", { name: group.name })}
            name="name"
            defaultValue={pageRefusal?.values?.groupId === group.id ? pageRefusal.values.name : group.name}
            maxLength={GROUP_NAME_MAX}
            required
            error={renameErrors.name}
            className="flex-1"
          />
          <Button
            type="submit"
            variant="secondary"
            className="sm:mt-6"
            aria-label={t("admin.groups.renameButtonLabel", { name: group.name })}
            disabled={renamer.state !== "idle"}
          >
            {t("admin.groups.renameButton")}
          </Button>
        </renamer.Form>
        <div className="sm:mt-6">
          <DeleteGroupControl group={group} onDelete={props.onDelete} />
        </div>
      </div>

      <h4 className="mt-5 text-base font-semibold">{t("admin.groups.membersTitle", { name: group.name })}</h4>
      {group.members.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.groups.noMembers")}</p>
      ) : (
        <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800">
          {group.members.map((member) => (
            <li key={member.id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="break-all">{member.email}</span>
              <remover.Form method="post">
                <input type="hidden" name="intent" value="removeMember" />
                <input type="hidden" name="groupId" value={group.id} />
                <input type="hidden" name="userId" value={member.id} />
                <Button
                  type="submit"
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  aria-label={t("admin.groups.remove", { email: member.email, name: group.name })}
                >
                  <UserMinus aria-hidden="true" className="size-4" />
                  <span aria-hidden="true">{t("admin.groups.removeShort")}</span>
                </Button>
              </remover.Form>
            </li>
          ))}
        </ul>
      )}

      {outside.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.groups.everyoneIn")}</p>
      ) : (
        // Keyed by the members: after an account was added the choice starts empty again.
        <adder.Form
          key={group.members.length}
          method="post"
          className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start"
        >
          <input type="hidden" name="intent" value="addMember" />
          <input type="hidden" name="groupId" value={group.id} />
          <div className="flex-1">
            <label htmlFor={selectId} className="block text-sm font-medium">
              {t("admin.groups.addLabel", { name: group.name })}
            </label>
            <select
              id={selectId}
              name="userId"
              defaultValue=""
              required
              aria-invalid={addErrors.userId ? true : undefined}
              aria-describedby={addErrors.userId ? `${selectId}-error` : undefined}
              className={inputClass}
            >
              <option value="">{t("admin.groups.chooseAccount")}</option>
              {outside.map((account) => (
                <option key={account.id} value={account.id}>
                  {account.email}
                </option>
              ))}
            </select>
            {addErrors.userId ? (
              <p id={`${selectId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
                {addErrors.userId}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="secondary" className="sm:mt-6" disabled={adder.state !== "idle"}>
            <UserPlus aria-hidden="true" className="size-4" />
            {t("admin.groups.addButton")}
          </Button>
        </adder.Form>
      )}
    </section>
  );
}
