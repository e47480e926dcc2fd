import type { JobHandler } from "#app/domains/jobs/job-worker.server.ts";
import type { AppMailService } from "./mail.server.ts";
import { MAIL_SEND_JOB } from "./mail-job-payload.server.ts";

export { MAIL_SEND_JOB };

/**
 * The mail's job handlers for the job worker's registry. A mail is delivered at once by the process that sent it
 * (mail.server.ts); the worker runs what that left in the queue: a try again after a passing failure, and a mail
 * whose process died before it was delivered. Through the service, so both share one SMTP transport and its turns.
 */
export function mailJobHandlers(mail: Pick<AppMailService, "runJob">): Record<string, JobHandler> {
  return {
    [MAIL_SEND_JOB]: { lane: "default", run: (payload, context) => mail.runJob(payload, context) },
  };
}
