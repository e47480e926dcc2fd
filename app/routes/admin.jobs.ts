import { z } from "zod";
import { dismissFailedJobAsAdmin, retryFailedJobAsAdmin } from "#app/domains/jobs/job-admin.server.ts";
import { jobKindName } from "#app/i18n/job-kind-name.ts";
import type { ActionResult } from "#app/lib/action-result.ts";
import { readForm } from "#app/lib/forms.server.ts";
import { AdminRefusal, adminAction } from "#app/web/admin-action.server.ts";
import { refuseAdminRead } from "#app/web/write-only.server.ts";
import type { Route } from "./+types/admin.jobs";

// The dashboard's "Try again" and "Dismiss" of a failed background job post here (the dashboard has no action).
const jobForm = z.object({
  intent: z.enum(["retry", "dismiss"]),
  // A job's id: a UUID, or `every:<kind>` for a recurring job. Nothing else reaches the database (a NUL, which
  // PostgreSQL refuses in any text, would otherwise answer 500).
  id: z
    .string()
    .trim()
    .regex(/^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|every:[a-z][a-z0-9.-]{0,60})$/),
});

export function action(args: Route.ActionArgs) {
  return adminAction(args, async ({ admin, t, db, parse }) => {
    const { intent, id } = parse(jobForm, await readForm(args.request), {
      message: t("admin.jobs.error.form"),
      fieldErrors: false,
    });
    const job =
      intent === "retry" ? await retryFailedJobAsAdmin(db, admin, id) : await dismissFailedJobAsAdmin(db, admin, id);
    if (!job) throw new AdminRefusal(409, t("admin.jobs.gone"));
    const name = jobKindName(t, job.kind);
    return {
      ok: true,
      message: t(intent === "retry" ? "admin.jobs.retried" : "admin.jobs.dismissed", { job: name }),
    } satisfies ActionResult;
  });
}

/** POST only: a GET is refused cleanly (403 for a non-admin, 405 for an admin). */
export function loader({ url, context }: Route.LoaderArgs) {
  refuseAdminRead(url, context);
}
