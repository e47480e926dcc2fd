import { ArrowLeft, Mail, Trash2 } from "lucide-react";
import { useRef } from "react";
import { data, Form, Link, useSubmit } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { useMessageTime } from "#app/components/admin/message-time.ts";
import { Button, buttonClass } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { findContactMessage } from "#app/domains/contact/contact.server.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { ROW_ID_PATTERN } from "#app/lib/text-schema.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.messages.$id";
import { contactMessageAction } from "./admin.messages.server.ts";

export async function loader({ params, url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const message = ROW_ID_PATTERN.test(params.id)
    ? await findContactMessage(runtimeOf(context).database.db, params.id)
    : null;
  if (!message) throw data(null, { status: 404 });
  return { message };
}

// "Mark as read" and "Mark as unread" post here (delete posts to the list, which answers it).
export function action(args: Route.ActionArgs) {
  return contactMessageAction(args);
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.messages");
}

export default function AdminMessage({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const time = useMessageTime();
  const submit = useSubmit();
  const deleteForm = useRef<HTMLFormElement>(null);
  const { message } = loaderData;
  const subject = encodeURIComponent(`Re: ${message.message.split("\n")[0]?.slice(0, 60) ?? ""}`);
  return (
    <div>
      <p className="mb-4">
        <Link to="/admin/messages" className={buttonClass("ghost", "sm")}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          {t("admin.messages.back")}
        </Link>
      </p>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight break-words">{message.name}</h1>
        <p className="mt-2 break-all text-zinc-600 dark:text-zinc-300">{message.email}</p>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          <time dateTime={message.createdAt}>{t("admin.messages.received", { date: time(message.createdAt) })}</time>
          {" · "}
          {t("admin.messages.writtenIn", { language: t(`admin.messages.language.${message.language}`) })}
          {" · "}
          {message.readAt ? t("admin.messages.read") : t("admin.messages.unread")}
        </p>
      </header>
      <ActionMessage result={actionData} />

      <div
        lang={message.language}
        className="mb-8 max-w-3xl whitespace-pre-wrap break-words rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
        data-testid="message-text"
      >
        {message.message}
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <a
          href={`mailto:${encodeURIComponent(message.email)}?subject=${subject}`}
          className={buttonClass("primary", "sm")}
        >
          <Mail aria-hidden="true" className="size-4" />
          {t("admin.messages.reply")}
        </a>
        <Form method="post">
          <input type="hidden" name="id" value={message.id} />
          <input type="hidden" name="intent" value={message.readAt ? "unread" : "read"} />
          <Button type="submit" size="sm" variant="secondary">
            {message.readAt ? t("admin.messages.markUnread") : t("admin.messages.markRead")}
          </Button>
        </Form>
        <Form method="post" action="/admin/messages" ref={deleteForm}>
          <input type="hidden" name="id" value={message.id} />
          <input type="hidden" name="intent" value="delete" />
          <ConfirmDialog
            trigger={
              <Button type="button" size="sm" variant="dangerOutline">
                <Trash2 aria-hidden="true" className="size-4" />
                {t("admin.messages.delete")}
              </Button>
            }
            title={t("admin.messages.deleteTitle", { name: message.name })}
            description={t("admin.messages.deleteText")}
            confirmLabel={t("admin.messages.delete")}
            cancelLabel={t("admin.common.cancel")}
            onConfirm={() => {
              if (deleteForm.current) submit(deleteForm.current);
            }}
          />
        </Form>
      </div>
    </div>
  );
}
