import { ArrowLeft } from "lucide-react";
import { data, Link } from "react-router";
import { buttonClass } from "#app/components/ui/button.tsx";
import { readOutboxMail } from "#app/domains/mail/outbox.server.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.outbox.$id";

export async function loader({ params, url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  const mail = await readOutboxMail(runtimeOf(context).database.db, params.id);
  if (!mail) throw data(null, { status: 404 });
  return { mail };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.outbox");
}

/**
 * The HTML part as a mail program would show it, but inert: in a sandboxed frame (no scripts, no forms, no
 * navigation, an origin of its own) whose own policy loads nothing at all, not even from this site; only the
 * mail's inline styles apply. The page's policy applies to it as well.
 */
function inertMailDocument(html: string): string {
  const policy =
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">";
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${policy}`) : policy + html;
}

const HEADER_ROWS: { key: AdminMessageKey; field: "from" | "to" | "date" | "subject" | "language" | "kind" | "id" }[] =
  [
    { key: "admin.outbox.header.from", field: "from" },
    { key: "admin.outbox.header.to", field: "to" },
    { key: "admin.outbox.header.date", field: "date" },
    { key: "admin.outbox.header.subject", field: "subject" },
    { key: "admin.outbox.header.language", field: "language" },
    { key: "admin.outbox.header.kind", field: "kind" },
    { key: "admin.outbox.header.id", field: "id" },
  ];

export default function AdminOutboxMail({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const { mail } = loaderData;
  return (
    <div>
      <p className="mb-4">
        <Link to="/admin/outbox" className={buttonClass("ghost", "sm")}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          {t("admin.outbox.back")}
        </Link>
      </p>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight break-words">{mail.subject || mail.id}</h1>
      </header>

      <section aria-labelledby="mail-headers" className="mb-8">
        <h2 id="mail-headers" className="text-xl font-semibold">
          {t("admin.outbox.headers")}
        </h2>
        <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          {HEADER_ROWS.map(({ key, field }) => (
            <div key={field} className="contents">
              <dt className="font-medium text-zinc-600 dark:text-zinc-300">{t(key)}</dt>
              <dd className="break-all" lang={field === "subject" && mail.language ? mail.language : undefined}>
                {field === "id" ? <code>{mail.id}</code> : mail[field] || "–"}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="mail-text" className="mb-8">
        <h2 id="mail-text" className="text-xl font-semibold">
          {t("admin.outbox.textPart")}
        </h2>
        <pre
          lang={mail.language || lang}
          data-testid="mail-text"
          className="mt-3 overflow-x-auto whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-zinc-50 p-4 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-900"
        >
          {mail.text}
        </pre>
      </section>

      <section aria-labelledby="mail-html">
        <h2 id="mail-html" className="text-xl font-semibold">
          {t("admin.outbox.htmlPart")}
        </h2>
        {mail.html ? (
          <>
            <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.outbox.htmlPartHint")}</p>
            <iframe
              title={t("admin.outbox.htmlFrameTitle")}
              sandbox=""
              referrerPolicy="no-referrer"
              srcDoc={inertMailDocument(mail.html)}
              className="mt-3 h-[36rem] w-full rounded-md border border-zinc-200 bg-white dark:border-zinc-800"
            />
          </>
        ) : (
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.outbox.noHtml")}</p>
        )}
      </section>
    </div>
  );
}
