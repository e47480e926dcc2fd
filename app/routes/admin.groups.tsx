import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { errorsFrom, GroupCard } from "#app/components/admin/groups/group-card.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { GROUP_NAME_MAX } from "#app/domains/groups/group-schema.ts";
import { type ActionResult, isActionResult, type Refused } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import type { Route } from "./+types/admin.groups";
import { groupsAction, groupsLoader } from "./admin.groups.server.ts";

export function loader({ url, context }: Route.LoaderArgs) {
  return groupsLoader({ url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return groupsAction({ request, url, context });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.groups");
}

export default function AdminGroups({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const { groups, accounts } = loaderData;
  const creator = useFetcher<ActionResult>();
  const created = useResultToast(creator.data, t("admin.common.error"));
  const createForm = useRef<HTMLFormElement>(null);
  // After a group was made, the form starts over for the next one.
  useEffect(() => {
    if (created?.ok) createForm.current?.reset();
  }, [created]);
  // Deletions and removals answer through page-level fetchers: the card or row they came from may be gone.
  const deleter = useFetcher<ActionResult>();
  useResultToast(deleter.data, t("admin.common.error"));
  const remover = useFetcher<ActionResult>();
  useResultToast(remover.data, t("admin.common.error"));
  const onDelete = (groupId: string) => deleter.submit({ intent: "delete", groupId }, { method: "post" });
  // Without JavaScript a form posts the page: its refusal names the form it came from (`values`).
  const pageRefusal = isActionResult(actionData) && !actionData.ok ? (actionData as Refused) : undefined;
  const createErrors = {
    ...errorsFrom(pageRefusal, "create"),
    ...(created && !created.ok ? (created.fieldErrors ?? {}) : {}),
  };
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.groups")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.groups.intro")}</p>
      </header>
      <ActionMessage result={actionData} />

      <section
        aria-labelledby="groups-create-title"
        className="mb-8 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
      >
        <h2 id="groups-create-title" className="text-xl font-semibold">
          {t("admin.groups.createTitle")}
        </h2>
        <creator.Form ref={createForm} method="post" className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="create" />
          <TextField
            label={t("admin.groups.name")}
            name="name"
            maxLength={GROUP_NAME_MAX}
            required
            defaultValue={pageRefusal?.values?.intent === "create" ? pageRefusal.values.name : undefined}
            hint={t("admin.groups.nameHint", { max: GROUP_NAME_MAX })}
            error={createErrors.name}
            className="flex-1"
          />
          <Button type="submit" className="sm:mt-6" disabled={creator.state !== "idle"}>
            {creator.state !== "idle" ? t("admin.common.saving") : t("admin.groups.createButton")}
          </Button>
        </creator.Form>
      </section>

      <section aria-labelledby="groups-list-title">
        <h2 id="groups-list-title" className="text-xl font-semibold">
          {t("admin.groups.listTitle", { count: groups.length })}
        </h2>
        {groups.length === 0 ? (
          <p className="mt-4 text-zinc-600 dark:text-zinc-300">{t("admin.groups.empty")}</p>
        ) : (
          <div className="mt-4 flex flex-col gap-4">
            {groups.map((group) => (
              <GroupCard
                key={group.id}
                group={group}
                accounts={accounts}
                pageAnswer={actionData}
                remover={remover}
                onDelete={onDelete}
              />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
