/** The areas of the audit log, the first part of every action name (`<area>.<verb>`), for the filter. */
export const AUDIT_AREAS = [
  "settings",
  "invites",
  "users",
  "groups",
  "gallery",
  "albums",
  "links",
  "faq",
  "videos",
  "posts",
  "backup",
  "mail",
  "messages",
  "jobs",
  "account",
] as const;
export type AuditArea = (typeof AUDIT_AREAS)[number];
