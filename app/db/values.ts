import type { DbBoolean, DbDate } from "./schema.ts";

export function toBoolean(value: DbBoolean): boolean {
  return value === true || value === 1;
}

export function toIsoString(value: DbDate): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
