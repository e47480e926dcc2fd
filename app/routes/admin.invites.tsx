import { Check, Copy, Link2, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { InviteGroupsField } from "#app/components/admin/invites/invite-groups-field.tsx";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { inputClass, TextField } from "#app/components/ui/field.tsx";
import type { InviteListItem } from "#app/domains/invites/invite-admin.server.ts";
import { MAX_CODES_AT_ONCE, MAX_NOTE_LENGTH } from "#app/domains/invites/invite-limits.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import type { Route } from "./+types/admin.invites";
import { invitesAction, invitesLoader } from "./admin.invites.server.ts";

export function loader({ url, context }: Route.LoaderArgs) {
  return invitesLoader({ url, context });
}

export function action({ request, url, context }: Route.ActionArgs) {
  return invitesAction({ request, url, context });
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.invites");
}

function useDateFormat() {
  const lang = useAdminData()?.lang ?? "en";
  const format = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return (iso: string) => `${format.format(new Date(iso))} UTC`;
}

/** Copies to the clipboard and says so in a toast; the button shows a check mark for a moment. */
function CopyButton({
  text,
  label,
  copiedMessage,
  icon,
}: {
  text: string;
  label: string;
  copiedMessage: string;
  icon: "code" | "link";
}) {
  const t = useAdminTranslate();
  const [copied, setCopied] = useState(false);
  const Icon = copied ? Check : icon === "code" ? Copy : Link2;
  return (
    <Button
      variant="secondary"
      size="sm"
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
          toast.success(copiedMessage);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          toast.error(t("admin.invites.copyFailed"), { description: text });
        }
      }}
    >
      <Icon aria-hidden="true" className="size-4" />
      <span aria-hidden="true">
        {icon === "code" ? t("admin.invites.copyCodeShort") : t("admin.invites.copyLinkShort")}
      </span>
    </Button>
  );
}

function InviteRow({
  invite,
  baseUrl,
  fresh,
  onDelete,
}: {
  invite: InviteListItem;
  baseUrl: string;
  fresh: boolean;
  onDelete: (code: string) => void;
}) {
  const t = useAdminTranslate();
  const formatDate = useDateFormat();
  const link = `${baseUrl}/auth?invite=${encodeURIComponent(invite.code)}`;
  return (
    <tr
      className={`border-t border-zinc-200 align-top dark:border-zinc-800 ${fresh ? "bg-indigo-50 dark:bg-indigo-950" : ""}`}
    >
      <th scope="row" className="whitespace-nowrap py-3 pr-4 text-left font-mono text-sm font-medium">
        {invite.code}
        {fresh ? (
          <span className="ml-2 font-sans text-xs text-indigo-800 dark:text-indigo-200">{t("admin.invites.new")}</span>
        ) : null}
      </th>
      <td className="py-3 pr-4 text-sm">
        {/* A mailed code's note is its address: said once, as "sent to …". */}
        {invite.sentTo && invite.note === invite.sentTo ? null : invite.note}
        {invite.sentTo ? (
          <span className="block text-xs text-zinc-600 dark:text-zinc-300">
            {t("admin.invites.sentTo", { email: invite.sentTo })}
          </span>
        ) : null}
      </td>
      <td className="py-3 pr-4 text-sm">
        {invite.groups.length > 0 ? (
          invite.groups.join(", ")
        ) : (
          <span className="text-zinc-600 dark:text-zinc-300">{t("admin.invites.noGroups")}</span>
        )}
      </td>
      <td className="py-3 pr-4 text-sm">
        {invite.isUsed ? (
          <span>
            {t("admin.invites.used")}
            <span className="block text-zinc-600 dark:text-zinc-300">
              {invite.usedByEmail ?? (invite.usedByDeleted ? t("admin.invites.deletedAccount") : "")}
            </span>
            {invite.usedAt ? (
              <span className="block text-xs text-zinc-600 dark:text-zinc-300">{formatDate(invite.usedAt)}</span>
            ) : null}
          </span>
        ) : (
          <span>{t("admin.invites.unused")}</span>
        )}
      </td>
      <td className="py-3 pr-4 text-sm">{formatDate(invite.createdAt)}</td>
      <td className="py-3">
        <div className="flex flex-col items-start gap-2 [&>button]:whitespace-nowrap">
          <CopyButton
            text={invite.code}
            icon="code"
            label={t("admin.invites.copyCode", { code: invite.code })}
            copiedMessage={t("admin.invites.codeCopied", { code: invite.code })}
          />
          {invite.isUsed ? null : (
            <>
              <CopyButton
                text={link}
                icon="link"
                label={t("admin.invites.copyLink", { code: invite.code })}
                copiedMessage={t("admin.invites.linkCopied")}
              />
              <ConfirmDialog
                trigger={
                  <Button
                    variant="dangerOutline"
                    size="sm"
                    aria-label={t("admin.invites.delete", { code: invite.code })}
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                    <span aria-hidden="true">{t("admin.common.delete")}</span>
                  </Button>
                }
                title={t("admin.common.confirmDelete", { name: invite.code })}
                description={t("admin.invites.deleteText")}
                confirmLabel={t("admin.common.delete")}
                cancelLabel={t("admin.common.cancel")}
                onConfirm={() => onDelete(invite.code)}
              />
            </>
          )}
        </div>
      </td>
    </tr>
  );
}

/** What the invites' action answers: made (or sent) codes on success. */
type InviteAnswer = ActionResult<{ codes?: string[] }>;

const codesOf = (answer: InviteAnswer | undefined) => (answer?.ok ? (answer.codes ?? []) : []);

export default function AdminInvites({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<InviteAnswer>();
  const result = useResultToast(fetcher.data, t("admin.common.error"));
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const sender = useFetcher<InviteAnswer>();
  const sendResult = useResultToast(sender.data, t("admin.common.error"));
  const sendErrors = sendResult && !sendResult.ok ? (sendResult.fieldErrors ?? {}) : {};
  const fresh = new Set([...codesOf(fetcher.data), ...codesOf(sender.data)]);
  const createForm = useRef<HTMLFormElement>(null);
  const sendForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (sendResult?.ok) sendForm.current?.reset();
  }, [sendResult]);
  // After codes were made, the form starts over for the next batch.
  useEffect(() => {
    if (result?.ok) createForm.current?.reset();
  }, [result]);
  // Deletions answer through the page's fetcher: the row they came from is gone when the answer shows.
  const deleter = useFetcher<InviteAnswer>();
  useResultToast(deleter.data, t("admin.common.error"));
  const onDelete = (code: string) => deleter.submit({ intent: "delete", code }, { method: "post" });
  const { invites, groups, baseUrl, mailMode } = loaderData;
  const lang = useAdminData()?.lang ?? "en";
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.invites")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.invites.intro")}</p>
      </header>
      <ActionMessage result={actionData} />

      <section
        aria-labelledby="invites-create-title"
        className="mb-8 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
      >
        <h2 id="invites-create-title" className="text-xl font-semibold">
          {t("admin.invites.createTitle")}
        </h2>
        <fetcher.Form ref={createForm} method="post" className="mt-4 flex flex-col gap-4">
          <input type="hidden" name="intent" value="create" />
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <TextField
              label={t("admin.invites.count")}
              name="count"
              type="number"
              min={1}
              max={MAX_CODES_AT_ONCE}
              defaultValue={1}
              required
              error={errors.count}
              className="sm:w-40"
            />
            <TextField
              label={t("admin.invites.note")}
              name="note"
              maxLength={MAX_NOTE_LENGTH}
              hint={t("admin.invites.noteHint")}
              error={errors.note}
              className="flex-1"
            />
          </div>
          <InviteGroupsField idPrefix="invite-create" groups={groups} error={errors.group_ids} />
          <Button type="submit" className="self-start" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? t("admin.common.saving") : t("admin.invites.createButton")}
          </Button>
        </fetcher.Form>
      </section>

      <section
        aria-labelledby="invites-send-title"
        className="mb-8 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800"
      >
        <h2 id="invites-send-title" className="text-xl font-semibold">
          {t("admin.invites.sendTitle")}
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.invites.sendText")}</p>
        {mailMode === "outbox" ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.invites.sendOutboxHint")}</p>
        ) : null}
        <sender.Form ref={sendForm} method="post" className="mt-4 flex flex-col gap-4">
          <input type="hidden" name="intent" value="send" />
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <TextField
              label={t("admin.invites.email")}
              name="email"
              type="email"
              autoComplete="off"
              maxLength={254}
              required
              error={sendErrors.email}
              className="flex-1"
            />
            <div className="sm:w-48">
              <label htmlFor="invite-mail-language" className="block text-sm font-medium">
                {t("admin.invites.mailLanguage")}
              </label>
              <select
                id="invite-mail-language"
                name="language"
                defaultValue={lang}
                aria-invalid={sendErrors.language ? true : undefined}
                aria-describedby={sendErrors.language ? "invite-mail-language-error" : undefined}
                className={inputClass}
              >
                <option value="en">English</option>
                <option value="de" lang="de">
                  Deutsch
                </option>
              </select>
              {sendErrors.language ? (
                <p id="invite-mail-language-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
                  {sendErrors.language}
                </p>
              ) : null}
            </div>
          </div>
          <InviteGroupsField idPrefix="invite-send" groups={groups} error={sendErrors.group_ids} />
          <Button type="submit" className="self-start" disabled={sender.state !== "idle"}>
            {sender.state !== "idle" ? t("admin.invites.sending") : t("admin.invites.sendButton")}
          </Button>
        </sender.Form>
      </section>

      <section aria-labelledby="invites-list-title">
        <h2 id="invites-list-title" className="text-xl font-semibold">
          {t("admin.invites.listTitle", { count: invites.length })}
        </h2>
        {invites.length === 0 ? (
          <p className="mt-4 text-zinc-600 dark:text-zinc-300">{t("admin.invites.empty")}</p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full min-w-[40rem] border-collapse">
              <caption className="sr-only">{t("admin.invites.listTitle", { count: invites.length })}</caption>
              <thead>
                <tr className="text-left text-sm text-zinc-600 dark:text-zinc-300">
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t("admin.invites.column.code")}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t("admin.invites.column.note")}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t("admin.invites.column.groups")}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t("admin.invites.column.status")}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t("admin.invites.column.created")}
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    {t("admin.invites.column.actions")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {invites.map((invite) => (
                  <InviteRow
                    key={invite.code}
                    invite={invite}
                    baseUrl={baseUrl}
                    fresh={fresh.has(invite.code)}
                    onDelete={onDelete}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
