/**
 * The dashboard's failed background work (issue 20): the panel, its answers, every kind of job in words (a kind
 * without words here is shown by its name, see job-kind-name.ts), and the audit log's sentences of both answers.
 */
export const adminJobsEn = {
  "admin.jobs.heading": "Background work that failed",
  "admin.jobs.intro":
    "The site tried this work several times and gave up. “Try again” queues it with fresh tries. “Dismiss” removes the notice and leaves the work undone (a regular task still runs at its next turn).",
  "admin.jobs.noneLeft": "Nothing is failing now.",
  "admin.jobs.caption": "Background work that failed, newest first",
  "admin.jobs.column.what": "What",
  "admin.jobs.column.when": "Last failed",
  "admin.jobs.column.tries": "Tries",
  "admin.jobs.column.error": "Error",
  "admin.jobs.column.actions": "Actions",
  "admin.jobs.retry": "Try again",
  "admin.jobs.dismiss": "Dismiss",
  /** Read after a button's label by screen readers only, so that each row's buttons say which work they act on. */
  "admin.jobs.which": "{job}, last failed {time}",
  "admin.jobs.retried": "“{job}” is queued again.",
  "admin.jobs.dismissed": "The notice of “{job}” is dismissed.",
  "admin.jobs.gone":
    "This work is no longer failing: it was tried again or dismissed meanwhile. The list shows what is failing now.",
  "admin.jobs.error.form": "The request names no listed work or no known answer (Try again or Dismiss).",

  "admin.jobs.kind.image.finish": "Making a picture's sizes",
  "admin.jobs.kind.watermark.redraw": "Redrawing watermarks",
  "admin.jobs.kind.posts.publish": "Publishing scheduled posts",
  "admin.jobs.kind.subscriptions.announce": "Mailing a new post or album to subscribers",
  "admin.jobs.kind.subscriptions.sweep": "Finding new posts and albums to mail to subscribers",
  "admin.jobs.kind.backup.scheduled": "Scheduled backup",
  "admin.jobs.kind.mail.send": "Sending a mail",
  "admin.jobs.kind.sweep.storage": "Clearing unused files",
  "admin.jobs.kind.posts.place-images": "Moving posts' pictures to where their visibility puts them",
  "admin.jobs.kind.sweep.attempts": "Clearing ended sign-in attempt counts",
  "admin.jobs.kind.sweep.events": "Clearing old change events",
  "admin.jobs.kind.sweep.jobs": "Clearing finished background work",
  "admin.jobs.kind.sweep.tokens": "Clearing expired account links",

  "admin.audit.areaName.jobs": "Background work",
  "admin.audit.field.error": "Error",
  "admin.audit.says.jobs.retry": "{actor} had the failed background work {job} tried again",
  "admin.audit.says.jobs.dismiss": "{actor} dismissed the failed background work {job}",
};
