/** The refused side of every admin answer. A refused write changes nothing. */
export type Refused = {
  ok: false;
  message: string;
  fieldErrors?: Record<string, string>;
  /** Per field, the value it most likely meant (an address completed with https://), offered by a button. */
  suggestions?: Record<string, string>;
  /** A refused new item's submitted fields: the form without JavaScript shows them again with the errors. */
  values?: Record<string, string>;
};

/**
 * What every admin action answers: a message for the toast and, when refused, the reason per field. `T` is what
 * a success carries besides (an upload's image, the invite codes made), so one type serves every admin screen.
 */
export type ActionResult<T extends object = Record<never, never>> =
  | ({ ok: true; message: string; id?: string } & T)
  | Refused;

export function isActionResult(value: unknown): value is ActionResult {
  return typeof value === "object" && value !== null && "ok" in value && "message" in value;
}
