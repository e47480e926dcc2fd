/**
 * Every kind of audit entry the app writes (`<area>.<verb>`), each with a sentence in the admin dictionary
 * (`admin.audit.says.<action>`, app/i18n/admin/audit.*.ts) and a rule in audit-sentence.ts. A kind missing
 * here still reads as a generic sentence, but audit-sentence.test.ts fails until it has its own.
 */
const CONTENT_VERBS = ["create", "update", "delete", "activate", "deactivate", "reorder"] as const;
const contentActions = <A extends string>(area: A) =>
  CONTENT_VERBS.map((verb) => `${area}.${verb}` as `${A}.${(typeof CONTENT_VERBS)[number]}`);

export const AUDIT_ACTIONS = [
  "settings.update",
  "invites.create",
  "invites.send",
  "invites.delete",
  "users.grantAdmin",
  "users.revokeAdmin",
  "users.signOut",
  "users.delete",
  "users.password-reset-request",
  "users.password-reset-link",
  "users.password-reset",
  "users.email-change-request",
  "users.email-change",
  "users.two-factor-reset",
  "users.groups",
  "groups.create",
  "groups.rename",
  "groups.delete",
  "account.changePassword",
  "account.changeLanguage",
  "account.endSession",
  "account.two-factor-on",
  "account.two-factor-off",
  "account.recovery-codes-new",
  "account.changeName",
  "account.subscribe",
  "account.unsubscribe",
  "gallery.create",
  "gallery.update",
  "gallery.publish",
  "gallery.unpublish",
  "gallery.delete",
  "gallery.reorder",
  "gallery.access",
  ...contentActions("links"),
  ...contentActions("faq"),
  ...contentActions("videos"),
  "videos.poster",
  "videos.access",
  "posts.create",
  "posts.update",
  "posts.delete",
  "posts.publish",
  "posts.schedule",
  "posts.unpublish",
  "posts.image-upload",
  "posts.share",
  "posts.unshare",
  "mail.dismiss-failures",
  "backup.download",
  "messages.read",
  "messages.unread",
  "messages.delete",
  "jobs.retry",
  "jobs.dismiss",
  "albums.create",
  "albums.update",
  "albums.access",
  "albums.delete",
  "albums.reorder",
  "albums.addPictures",
  "albums.removePicture",
  "albums.reorderPictures",
  "albums.cover",
  "albums.share",
  "albums.unshare",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(action: string): action is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(action);
}
