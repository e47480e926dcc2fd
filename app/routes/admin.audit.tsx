import { Form, Link } from "react-router";
import { z } from "zod";
import { AuditDiff } from "#app/components/admin/audit-diff.tsx";
import { buttonClass } from "#app/components/ui/button.tsx";
import { inputClass } from "#app/components/ui/field.tsx";
import { listAudit } from "#app/domains/audit/audit.server.ts";
import { AUDIT_AREAS } from "#app/domains/audit/audit-areas.ts";
import { describeAuditEntry } from "#app/domains/audit/audit-sentence.ts";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { adminPageMeta } from "#app/web/admin-meta.ts";
import { requireAdmin } from "#app/web/session.server.ts";
import type { Route } from "./+types/admin.audit";

const PAGE_SIZE = 50;

const auditQuery = z.object({
  area: z.enum(AUDIT_AREAS).nullable().catch(null).default(null),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

export async function loader({ url, context }: Route.LoaderArgs) {
  requireAdmin(url, context);
  // Anything unexpected in the address falls back to the first page of every area, never an error.
  const query = auditQuery.parse({
    area: url.searchParams.get("area") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  const { area, page } = query;
  const { records, total } = await listAudit(runtimeOf(context).database.db, {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    action: area ? `${area}.` : undefined,
  });
  return { records, total, page, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)), area };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return adminPageMeta(matches, location.pathname, "admin.section.audit");
}

function pageLink(page: number, area: string | null): string {
  const params = new URLSearchParams();
  if (area) params.set("area", area);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/admin/audit?${query}` : "/admin/audit";
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const { records, total, page, pages, area } = loaderData;
  const format = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: "UTC",
  });
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{t("admin.section.audit")}</h1>
        <p className="mt-2 text-zinc-600 dark:text-zinc-300">{t("admin.audit.intro")}</p>
      </header>

      <Form method="get" className="mb-6 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="audit-area" className="block text-sm font-medium">
            {t("admin.audit.area")}
          </label>
          <select id="audit-area" name="area" defaultValue={area ?? ""} className={`${inputClass} w-56`}>
            <option value="">{t("admin.audit.allAreas")}</option>
            {AUDIT_AREAS.map((name) => (
              <option key={name} value={name}>
                {t(`admin.audit.areaName.${name}` as AdminMessageKey)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass("secondary")}>
          {t("admin.audit.filter")}
        </button>
      </Form>

      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-300" aria-live="polite">
        {t("admin.audit.count", { count: total })}
      </p>

      {records.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-300">{t("admin.audit.empty")}</p>
      ) : (
        // A table at desktop widths; on a phone each entry is a card (when, sentence, changes), never side-scrolled.
        <table className="w-full table-fixed border-collapse text-sm max-md:block">
          <caption className="sr-only">{t("admin.audit.caption", { page, pages })}</caption>
          <thead className="max-md:sr-only">
            <tr className="text-left text-zinc-600 dark:text-zinc-300">
              <th scope="col" className="w-44 py-2 pr-4 font-medium">
                {t("admin.audit.column.when")}
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                {t("admin.audit.column.what")}
              </th>
              <th scope="col" className="w-[40%] py-2 font-medium">
                {t("admin.audit.column.changes")}
              </th>
            </tr>
          </thead>
          <tbody className="max-md:block max-md:space-y-3">
            {records.map((record) => {
              const { sentence, diff } = describeAuditEntry(record, t);
              return (
                <tr
                  key={record.id}
                  className="border-t border-zinc-200 align-top dark:border-zinc-800 max-md:block max-md:rounded-lg max-md:border max-md:p-3"
                >
                  <td className="py-2 pr-4 text-zinc-600 dark:text-zinc-300 max-md:block max-md:p-0 max-md:text-xs">
                    <time dateTime={record.createdAt}>{format.format(new Date(record.createdAt))} UTC</time>
                  </td>
                  <td className="break-words py-2 pr-4 [overflow-wrap:anywhere] max-md:block max-md:py-1 max-md:pr-0">
                    {sentence}
                  </td>
                  <td className="py-2 max-md:block max-md:py-1">
                    <AuditDiff rows={diff} t={t} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <nav aria-label={t("admin.audit.pagination")} className="mt-6 flex items-center gap-4">
        {page > 1 ? (
          <Link to={pageLink(page - 1, area)} className={buttonClass("secondary", "sm")}>
            {t("admin.audit.newer")}
          </Link>
        ) : null}
        <span className="text-sm">{t("admin.audit.pageOf", { page, pages })}</span>
        {page < pages ? (
          <Link to={pageLink(page + 1, area)} className={buttonClass("secondary", "sm")}>
            {t("admin.audit.older")}
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
