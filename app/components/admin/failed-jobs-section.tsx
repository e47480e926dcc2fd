import { useEffect, useRef } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { buttonClass } from "#app/components/ui/button.tsx";
import { ScrollTable } from "#app/components/ui/scroll-table.tsx";
import type { FailedJob } from "#app/domains/jobs/job-failures.server.ts";
import { jobKindName } from "#app/i18n/job-kind-name.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminData, useAdminTranslate } from "#app/lib/admin-data.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";

/**
 * The dashboard's background work that failed for good (issue 20), with "Try again" and "Dismiss" per job (posted
 * to /admin/jobs). Shown only while there is any; read when the dashboard loads and again after each answer, not
 * live. After an answer the heading takes the focus (the row and its buttons are gone), and the section stays
 * with "nothing failing" when it was the last, so that the focus has somewhere to be.
 */
export function FailedJobsSection({ jobs }: { jobs: FailedJob[] }) {
  const t = useAdminTranslate();
  const lang = useAdminData()?.lang ?? "en";
  const fetcher = useFetcher<ActionResult>();
  const answer = useResultToast(fetcher.data, t("admin.common.error"));
  const { revalidate } = useRevalidator();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!answer) return;
    heading.current?.focus();
    // A refusal (the job was answered elsewhere meanwhile) is not followed by a reload of the dashboard's data.
    if (!answer.ok) void revalidate();
  }, [answer, revalidate]);
  if (jobs.length === 0 && !answer) return null;

  // The mail failures' format (admin._index.tsx): every admin reads the same time, in UTC.
  const format = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: "UTC",
  });
  const time = (iso: string) => `${format.format(new Date(iso))} UTC`;
  return (
    <section
      aria-labelledby="failed-jobs-heading"
      data-testid="failed-jobs"
      className="mt-10 rounded-xl border border-red-200 p-5 dark:border-red-900"
    >
      <h2
        id="failed-jobs-heading"
        ref={heading}
        tabIndex={-1}
        className="text-xl font-semibold text-red-800 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-red-300"
      >
        {t("admin.jobs.heading")}
      </h2>
      {jobs.length === 0 ? (
        <p className="mt-2">{t("admin.jobs.noneLeft")}</p>
      ) : (
        <>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">{t("admin.jobs.intro")}</p>
          <ScrollTable caption={t("admin.jobs.caption")} minWidth="min-w-[36rem]" className="mt-3">
            <thead>
              <tr className="text-left text-zinc-600 dark:text-zinc-300">
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.jobs.column.what")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.jobs.column.when")}
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  {t("admin.jobs.column.tries")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("admin.jobs.column.error")}
                </th>
                <th scope="col" className="py-2 font-medium">
                  {t("admin.jobs.column.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => {
                const name = jobKindName(t, job.kind);
                // Read after each button's label, so that "Try again" says which of the listed jobs.
                const which = t("admin.jobs.which", { job: name, time: time(job.failedAt) });
                return (
                  <tr key={job.id} className="border-t border-zinc-200 align-top dark:border-zinc-800">
                    <th scope="row" className="py-2 pr-4 text-left font-medium">
                      {name}
                    </th>
                    <td className="whitespace-nowrap py-2 pr-4">
                      <time dateTime={job.failedAt}>{time(job.failedAt)}</time>
                    </td>
                    <td className="py-2 pr-4 text-right tabular-nums">{job.attempts}</td>
                    <td className="py-2 pr-4 whitespace-pre-wrap break-words">{job.error}</td>
                    <td className="py-2">
                      <fetcher.Form
                        method="post"
                        action="/admin/jobs"
                        className="flex flex-col gap-2 whitespace-nowrap"
                      >
                        <input type="hidden" name="id" value={job.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="retry"
                          className={buttonClass("secondary", "sm")}
                          disabled={fetcher.state !== "idle"}
                        >
                          {t("admin.jobs.retry")}
                          <span className="sr-only">: {which}</span>
                        </button>
                        <button
                          type="submit"
                          name="intent"
                          value="dismiss"
                          className={buttonClass("secondary", "sm")}
                          disabled={fetcher.state !== "idle"}
                        >
                          {t("admin.jobs.dismiss")}
                          <span className="sr-only">: {which}</span>
                        </button>
                      </fetcher.Form>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </ScrollTable>
        </>
      )}
    </section>
  );
}
