import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { GROUP_NAME_MAX, groupNameSchema } from "#app/domains/groups/group-schema.ts";
import {
  createGroup,
  deleteGroup,
  type GroupRefusal,
  listGroupCandidates,
  listGroupMembers,
  listGroups,
  renameGroup,
  setMembership,
  setUserGroups,
} from "#app/domains/groups/groups.server.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { fieldErrorsOf, translateFieldErrors } from "#app/lib/field-errors.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { ROW_ID_PATTERN, rowIdSchema } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { type AdminCall, AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { requireAdmin } from "#app/web/session.server.ts";

type Args = { request: Request; url: URL; context: Readonly<RouterContextProvider> };

/** The groups screen: every group with its members and counts, and every account that could join one. */
export async function groupsLoader({ url, context }: Omit<Args, "request">) {
  requireAdmin(url, context);
  const { db } = runtimeOf(context).database;
  const [groups, members, accounts] = await Promise.all([
    listGroups(db),
    listGroupMembers(db),
    listGroupCandidates(db),
  ]);
  return {
    groups: groups.map((group) => ({
      ...group,
      members: members
        .filter((member) => member.groupId === group.id)
        .map(({ userId, email }) => ({ id: userId, email })),
    })),
    accounts,
  };
}

const accountId = z.string().regex(ROW_ID_PATTERN, { error: "admin.groups.error.account" });

const groupForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), name: groupNameSchema }),
  z.object({ intent: z.literal("rename"), groupId: rowIdSchema, name: groupNameSchema }),
  z.object({ intent: z.literal("delete"), groupId: rowIdSchema }),
  z.object({ intent: z.literal("addMember"), groupId: rowIdSchema, userId: accountId }),
  z.object({ intent: z.literal("removeMember"), groupId: rowIdSchema, userId: accountId }),
]);

/** The form a refusal came from, so that the page without JavaScript shows the error beside that form. */
type Origin = { intent?: string; groupId?: string; name?: string };

function originOf(input: Record<string, string>): Record<string, string> {
  const { intent = "", groupId = "", name = "" } = input as Origin;
  return { intent, groupId, name };
}

/** The refusals a domain answers, as the status and the field (if any) the screen shows them on. */
const REFUSALS: Record<GroupRefusal, { status: number; key: AdminMessageKey; field?: string }> = {
  notFound: { status: 404, key: "admin.groups.error.notFound" },
  nameTaken: { status: 400, key: "admin.groups.error.nameTaken", field: "name" },
  userNotFound: { status: 404, key: "admin.groups.error.userNotFound", field: "userId" },
  unknownGroup: { status: 400, key: "admin.groups.error.unknownGroup", field: "groupIds" },
};

function refusalFor(t: AdminCall["t"], reason: GroupRefusal, values?: Record<string, string>): AdminRefusal {
  const { status, key, field } = REFUSALS[reason];
  const message = t(key);
  return new AdminRefusal(status, message, { ...(field ? { fieldErrors: { [field]: message } } : {}), values });
}

/** Creating, renaming and deleting groups, and putting accounts in them: each audited by the groups domain. */
export function groupsAction(args: Args) {
  return adminAction(args, async (call) => runGroupIntent(call, await readForm(args.request)));
}

async function runGroupIntent({ admin, t, db }: AdminCall, input: Record<string, string>) {
  const values = originOf(input);
  const parsed = groupForm.safeParse(input);
  if (!parsed.success) {
    const fieldErrors = translateFieldErrors(t, fieldErrorsOf(parsed.error), { name: { max: GROUP_NAME_MAX } });
    const message = fieldErrors.name ?? fieldErrors.userId ?? t("admin.groups.error.form");
    throw new AdminRefusal(400, message, { fieldErrors, values });
  }
  const form = parsed.data;
  if (form.intent === "create" || form.intent === "rename" || form.intent === "delete") {
    const result =
      form.intent === "create"
        ? await createGroup(db, admin, form.name)
        : form.intent === "rename"
          ? await renameGroup(db, admin, { groupId: form.groupId, name: form.name })
          : await deleteGroup(db, admin, form.groupId);
    if (!result.ok) throw refusalFor(t, result.reason, values);
    const said: Record<typeof form.intent, AdminMessageKey> = {
      create: "admin.groups.created",
      rename: result.changed ? "admin.groups.renamed" : "admin.groups.unchanged",
      delete: "admin.groups.deleted",
    };
    return { ok: true, message: t(said[form.intent], { name: result.name }), id: result.id } satisfies ActionResult;
  }
  const member = form.intent === "addMember";
  const result = await setMembership(db, admin, { groupId: form.groupId, userId: form.userId, member });
  if (!result.ok) throw refusalFor(t, result.reason, values);
  const key = !result.changed
    ? "admin.groups.membershipUnchanged"
    : member
      ? "admin.groups.added"
      : "admin.groups.removed";
  return { ok: true, message: t(key, { email: result.email, name: result.group ?? "" }) } satisfies ActionResult;
}

/** The Users screen's groups control: one checkbox per group, named `group.<id>` (a form sends only ticked ones). */
const GROUP_FIELD = /^group\.(.+)$/;

const userGroupsForm = z.object({ intent: z.literal("setGroups"), userId: accountId });

/**
 * Replaces an account's groups from the Users screen's form (admin.users.tsx calls it for intent `setGroups`): the
 * same refusals as this screen's, a group that is gone on the form's `groupIds` field.
 */
export async function runUserGroupsIntent({ admin, t, db }: AdminCall, input: Record<string, string>) {
  const values = { intent: "setGroups", userId: input.userId ?? "" };
  const parsed = userGroupsForm.safeParse(input);
  if (!parsed.success) throw new AdminRefusal(400, t("admin.groups.error.form"), { values });
  const groupIds = Object.entries(input).flatMap(([key, value]) => {
    const id = GROUP_FIELD.exec(key)?.[1];
    return id !== undefined && value === "on" ? [id] : [];
  });
  if (groupIds.some((id) => !ROW_ID_PATTERN.test(id))) throw refusalFor(t, "unknownGroup", values);
  const result = await setUserGroups(db, admin, parsed.data.userId, groupIds);
  if (!result.ok) throw refusalFor(t, result.reason, values);
  const key = result.changed ? "admin.users.groupsSaved" : "admin.users.groupsUnchanged";
  return { ok: true, message: t(key, { email: result.email }) } satisfies ActionResult;
}
