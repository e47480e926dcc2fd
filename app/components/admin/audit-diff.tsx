import type { AuditDiffRow, AuditText } from "#app/domains/audit/audit-sentence.ts";
import type { AdminTranslate } from "#app/i18n/admin-dictionary.ts";

/** A value of the diff: shortened when long, the full text one click away; wraps, never widens the column. */
function Value({ value, t }: { value: AuditText; t: AdminTranslate }) {
  if (value.full === null) return <span className="whitespace-pre-wrap">{value.text}</span>;
  return (
    <details className="inline">
      <summary className="cursor-pointer">
        <span className="whitespace-pre-wrap">{value.text}</span>{" "}
        <span className="text-xs underline">{t("admin.audit.showFull")}</span>
      </summary>
      <span className="mt-1 block whitespace-pre-wrap">{value.full}</span>
    </details>
  );
}

/**
 * The before/after of an audit entry, field by field: the translated label, the old value struck out and the new
 * one added (with "Before:"/"After:" for screen readers, which do not announce the marks).
 */
export function AuditDiff({ rows, t }: { rows: AuditDiffRow[]; t: AdminTranslate }) {
  if (rows.length === 0) return null;
  return (
    <dl className="min-w-0 space-y-2 break-words [overflow-wrap:anywhere]">
      {rows.map((row) => (
        <div key={row.label}>
          <dt className="text-xs font-medium text-zinc-600 dark:text-zinc-300">{row.label}</dt>
          <dd className="flex flex-col gap-1">
            {row.before ? (
              <del className="rounded bg-red-50 px-1 text-red-900 dark:bg-red-950 dark:text-red-100">
                <span className="sr-only">{t("admin.audit.before")} </span>
                <Value value={row.before} t={t} />
              </del>
            ) : null}
            {row.after ? (
              <ins className="rounded bg-emerald-50 px-1 text-emerald-900 no-underline dark:bg-emerald-950 dark:text-emerald-100">
                <span className="sr-only">{t("admin.audit.after")} </span>
                <Value value={row.after} t={t} />
              </ins>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
