import { Link } from "react-router";
import { ActionMessage } from "#app/components/admin/action-message.tsx";
import { useMessageTime } from "#app/components/admin/message-time.ts";
import { ScrollTable } from "#app/components/ui/scroll-table.tsx";
import { contactEnabled, listContactMessages } from "#app/domains/contact/contact.server.ts";
import { readSettings } from "#app/domains/settings/settings.server.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.messages";
import { contactMessageAction } from "./admin.messages.server.ts";

/** How much of a message the list shows. */
const EXCERPT = 120;

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const db = runtimeOf(context).database.db;
  const [list, settings] = await Promise.all([listContactMessages(db), readSettings(db)]);
  return {
    ...list,
    messages: list.messages.map(({ message, ...rest }) => ({
      ...rest,
      excerpt: message.length > EXCERPT ? `${message.slice(0, EXCERPT).trimEnd()}…` : message,
    })),
    enabled: contactEnabled(settings),
  };
}

// A message's own page posts its "delete" here, so that the answer is this list.
export function action(args: Route.ActionArgs) {
  return contactMessageAction(args);
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.messages");
}

const linkClass =
  "font-medium text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:text-indigo-200";

export default function AdminMessages({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const time = useMessageTime();
  const { messages, total, unread, enabled } = loaderData;
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.messages")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.messages.intro")}</p>
      </header>
      <ActionMessage result={actionData} />
      {enabled ? null : (
        <p className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          {t("admin.messages.off")}{" "}
          <Link to="/admin/settings?section=contact" className="font-medium underline">
            {t("admin.messages.settingsLink")}
          </Link>
        </p>
      )}
      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-300">
        {total > messages.length
          ? t("admin.messages.countLimited", { count: total, unread, shown: messages.length })
          : t("admin.messages.count", { count: total, unread })}
      </p>
      {messages.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-300">{t("admin.messages.empty")}</p>
      ) : (
        <ScrollTable caption={t("admin.messages.caption")} minWidth="min-w-[44rem]">
          <thead>
            <tr className="text-left text-zinc-600 dark:text-zinc-300">
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.messages.column.when")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.messages.column.from")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.messages.column.message")}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t("admin.messages.column.status")}
              </th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr
                key={message.id}
                className={`border-t border-zinc-200 align-top dark:border-zinc-800 ${message.readAt ? "" : "font-semibold"}`}
              >
                <td className="whitespace-nowrap py-2 pr-4">
                  <time dateTime={message.createdAt}>{time(message.createdAt)}</time>
                </td>
                <td className="py-2 pr-4 break-all">
                  {message.name}
                  <br />
                  <span className="font-normal text-zinc-600 dark:text-zinc-300">{message.email}</span>
                </td>
                <td className="py-2 pr-4">
                  {/* The name said first for screen readers; the visible excerpt stays part of the link's name. */}
                  <Link to={`/admin/messages/${message.id}`} className={`${linkClass} relative block`}>
                    <span className="sr-only">{t("admin.messages.open", { name: message.name })}: </span>
                    {message.excerpt}
                  </Link>
                </td>
                <td className="whitespace-nowrap py-2">
                  {message.readAt ? t("admin.messages.read") : t("admin.messages.unread")}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </div>
  );
}
