import { textSchema } from "#app/lib/text-schema.ts";

/**
 * A member group's name as the admin types it (issue 21). Client-safe: the screen uses the limit for `maxLength`.
 * Error messages are admin dictionary keys (app/i18n/admin/groups.*.ts), translated by the route.
 */

export const GROUP_NAME_MAX = 60;

/** Trimmed, 1–60 characters, one line. Unique regardless of case is the domain's check (it needs the table). */
export const groupNameSchema = textSchema({
  max: GROUP_NAME_MAX,
  required: true,
  messages: {
    required: "admin.groups.error.nameRequired",
    tooLong: "admin.groups.error.nameTooLong",
    control: "admin.groups.error.nameControl",
    lineBreak: "admin.groups.error.nameLineBreak",
    invalid: "admin.groups.error.nameRequired",
  },
});

/**
 * What makes two names the same group: "Family" and "family" would be indistinguishable in the editor's list of
 * groups. Compared in JavaScript, not with SQL's lower(), which on SQLite folds only A–Z ("Ärzte" ≠ "ärzte").
 */
export function groupNameKey(name: string): string {
  return name.normalize("NFC").toLocaleLowerCase("en");
}
