import type { AdminMessageKey, AdminTranslate } from "./admin-dictionary.ts";

/**
 * A background job's kind in the admin's words ("Scheduled backup"), or its name as stored where the dictionary has
 * none (a kind added without words, or written by a newer version of the site): never an empty cell.
 */
export function jobKindName(t: AdminTranslate, kind: string): string {
  const key = `admin.jobs.kind.${kind}`;
  const text = t(key as AdminMessageKey);
  return text === key ? kind : text;
}
