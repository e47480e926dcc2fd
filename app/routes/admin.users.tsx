import { LogOut, type LucideIcon, ShieldMinus, ShieldPlus, Trash2 } from "lucide-react";
import type { ButtonHTMLAttributes } from "react";
import { redirect, useFetcher } from "react-router";
import { z } from "zod";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { UserGroupsForm } from "#app/components/admin/groups/user-groups-form.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { listGroupMembers, listGroups } from "#app/domains/groups/groups.server.ts";
import {
  deleteUser,
  listUsers,
  setAdminRole,
  signOutEverywhere,
  type UserChangeReason,
  type UserSummary,
} from "#app/domains/users/user-admin.server.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { rowIdSchema } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.users";
import { runUserGroupsIntent } from "./admin.groups.server.ts";

export async function loader({ url, context }: Route.LoaderArgs) {
  const admin = requireAdmin(url, context);
  const { db } = runtimeOf(context).database;
  const [users, groups, memberships] = await Promise.all([listUsers(db), listGroups(db), listGroupMembers(db)]);
  // Each account's groups by id, for its checkboxes (member groups, issue 21).
  const groupsOf: Record<string, string[]> = {};
  for (const { userId, groupId } of memberships) groupsOf[userId] = [...(groupsOf[userId] ?? []), groupId];
  return { users, selfId: admin.id, groups: groups.map(({ id, name }) => ({ id, name })), groupsOf };
}

const userForm = z.object({
  intent: z.enum(["grantAdmin", "revokeAdmin", "signOut", "delete"]),
  userId: rowIdSchema,
  // The extra confirmation an admin gives when removing their own role or account.
  confirmSelf: z.literal("yes").optional(),
});

const REASONS: Record<UserChangeReason, AdminMessageKey> = {
  notFound: "admin.users.error.notFound",
  lastAdmin: "admin.users.error.lastAdmin",
  confirmSelf: "admin.users.error.confirmSelf",
};

export function action(args: Route.ActionArgs) {
  return adminAction(args, async (call) => {
    const { admin, t, db, parse } = call;
    const input = await readForm(args.request);
    // An account's member groups: the groups screen's rules and answers (admin.groups.server.ts).
    if (input.intent === "setGroups") return runUserGroupsIntent(call, input);
    const { intent, userId, confirmSelf } = parse(userForm, input, {
      message: t("admin.users.error.form"),
      fieldErrors: false,
    });
    const confirmed = confirmSelf === "yes";
    const result =
      intent === "signOut"
        ? await signOutEverywhere(db, admin, userId)
        : intent === "delete"
          ? await deleteUser(db, admin, { userId, confirmSelf: confirmed })
          : await setAdminRole(db, admin, { userId, admin: intent === "grantAdmin", confirmSelf: confirmed });
    if (!result.ok) throw new AdminRefusal(400, t(REASONS[result.reason]));
    // Whoever removed their own role or sessions can no longer see this screen: off to the start page.
    if (userId === admin.id && intent !== "grantAdmin" && result.changed) throw redirect("/");
    const messages: Record<typeof intent, AdminMessageKey> = {
      grantAdmin: result.changed ? "admin.users.granted" : "admin.users.alreadyAdmin",
      revokeAdmin: result.changed ? "admin.users.revoked" : "admin.users.notAdmin",
      signOut: "admin.users.signedOut",
      delete: "admin.users.deleted",
    };
    return { ok: true, message: t(messages[intent], { email: result.email }) } satisfies ActionResult;
  });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.users");
}

type Submit = (fields: Record<string, string>) => void;

type RowButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  icon: LucideIcon;
  /** The full name, with the user's e-mail, for assistive technology. */
  label: string;
  /** The short word shown beside the icon. */
  short: string;
  danger?: boolean;
};

/** A small button of a user's row: on screen an icon and a short word, read out as the full label. */
function RowButton({ icon: Icon, label, short, danger = false, ...props }: RowButtonProps) {
  return (
    <Button variant={danger ? "dangerOutline" : "secondary"} size="sm" aria-label={label} {...props}>
      <Icon aria-hidden="true" className="size-4" />
      <span aria-hidden="true">{short}</span>
    </Button>
  );
}

/** A row button that asks for confirmation in a dialog before `onConfirm` runs. */
function ConfirmRowButton({
  busy,
  title,
  description,
  confirmLabel,
  confirmVariant,
  onConfirm,
  ...button
}: Omit<RowButtonProps, "disabled" | "onClick"> & {
  busy: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  confirmVariant?: "danger" | "primary";
  onConfirm: () => void;
}) {
  const t = useAdminTranslate();
  return (
    <ConfirmDialog
      trigger={<RowButton disabled={busy} {...button} />}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      confirmVariant={confirmVariant}
      cancelLabel={t("admin.common.cancel")}
      onConfirm={onConfirm}
    />
  );
}

type Groups = { all: { id: string; name: string }[]; of: Record<string, string[]> };

function UserRow({
  user,
  isSelf,
  busy,
  send,
  groups,
}: {
  user: UserSummary;
  isSelf: boolean;
  busy: boolean;
  send: Submit;
  groups: Groups;
}) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const submit = (intent: string) => send({ intent, userId: user.id, ...(isSelf ? { confirmSelf: "yes" } : {}) });
  const created = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(new Date(user.createdAt));
  return (
    <tr className="border-t border-zinc-200 align-top dark:border-zinc-800">
      <th scope="row" className="py-3 pr-4 text-left text-sm font-medium">
        {user.email}
        {isSelf ? (
          <span className="ml-2 text-xs font-normal text-zinc-600 dark:text-zinc-300">{t("admin.users.you")}</span>
        ) : null}
      </th>
      <td className="py-3 pr-4 text-sm">{created} UTC</td>
      <td className="py-3 pr-4 text-sm">{user.isAdmin ? t("admin.users.roleAdmin") : t("admin.users.roleUser")}</td>
      <td className="py-3 pr-4 text-sm">{t("admin.users.sessionCount", { count: user.activeSessions })}</td>
      <td className="py-3 pr-4">
        <UserGroupsForm user={user} groups={groups.all} memberOf={groups.of[user.id] ?? []} />
      </td>
      <td className="py-3">
        <div className="flex flex-col items-start gap-2 [&>button]:whitespace-nowrap">
          {user.isAdmin ? (
            <ConfirmRowButton
              icon={ShieldMinus}
              label={t("admin.users.revoke", { email: user.email })}
              short={t("admin.users.revokeShort")}
              busy={busy}
              title={isSelf ? t("admin.users.revokeSelfTitle") : t("admin.users.revokeTitle", { email: user.email })}
              description={isSelf ? t("admin.users.revokeSelfText") : t("admin.users.revokeText")}
              confirmLabel={isSelf ? t("admin.users.revokeSelfConfirm") : t("admin.users.revokeShort")}
              onConfirm={() => submit("revokeAdmin")}
            />
          ) : (
            // Asked first like every other change of a row: the role opens the whole admin area to someone.
            // Nothing is destroyed, so the confirming button is not red.
            <ConfirmRowButton
              icon={ShieldPlus}
              label={t("admin.users.grant", { email: user.email })}
              short={t("admin.users.grantShort")}
              busy={busy}
              title={t("admin.users.grantTitle", { email: user.email })}
              description={t("admin.users.grantText")}
              confirmLabel={t("admin.users.grantShort")}
              confirmVariant="primary"
              onConfirm={() => submit("grantAdmin")}
            />
          )}
          <ConfirmRowButton
            icon={LogOut}
            label={t("admin.users.signOut", { email: user.email })}
            short={t("admin.users.signOutShort")}
            busy={busy}
            title={t("admin.users.signOutTitle", { email: user.email })}
            description={isSelf ? t("admin.users.signOutSelfText") : t("admin.users.signOutText")}
            confirmLabel={t("admin.users.signOutShort")}
            onConfirm={() => submit("signOut")}
          />
          <ConfirmRowButton
            icon={Trash2}
            label={t("admin.users.delete", { email: user.email })}
            short={t("admin.common.delete")}
            danger
            busy={busy}
            title={isSelf ? t("admin.users.deleteSelfTitle") : t("admin.common.confirmDelete", { name: user.email })}
            description={isSelf ? t("admin.users.deleteSelfText") : t("admin.users.deleteText")}
            confirmLabel={isSelf ? t("admin.users.deleteSelfConfirm") : t("admin.common.delete")}
            onConfirm={() => submit("delete")}
          />
        </div>
      </td>
    </tr>
  );
}

export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const { users, selfId } = loaderData;
  const groups: Groups = { all: loaderData.groups, of: loaderData.groupsOf };
  // One fetcher for the whole table: its answer still shows when the row it came from is gone (deleted).
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.data, t("admin.common.error"));
  const send: Submit = (fields) => fetcher.submit(fields, { method: "post" });
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.users")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.users.intro")}</p>
      </header>
      <ActionMessage result={actionData} />
      <div className="overflow-x-auto">
        <table className="w-full min-w-[48rem] border-collapse">
          <caption className="sr-only">{t("admin.users.caption", { count: users.length })}</caption>
          <thead>
            <tr className="text-left text-sm text-zinc-600 dark:text-zinc-300">
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.users.column.email")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.users.column.created")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.users.column.role")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.users.column.sessions")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.users.column.groups")}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t("admin.users.column.actions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                isSelf={user.id === selfId}
                busy={fetcher.state !== "idle"}
                send={send}
                groups={groups}
              />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
