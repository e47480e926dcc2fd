/**
 * What every admin action answers: a message for the toast and, when refused, the reason per field.
 * A refused write changes nothing.
 */
export type ActionResult =
  | { ok: true; message: string; id?: string }
  | { ok: false; message: string; fieldErrors?: Record<string, string> };

export function isActionResult(value: unknown): value is ActionResult {
  return typeof value === "object" && value !== null && "ok" in value && "message" in value;
}
