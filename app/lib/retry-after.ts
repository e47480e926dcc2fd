/**
 * A route's `headers` export for forms that answer 429: a document response keeps only the action's cookies on its
 * own, so the action's Retry-After is passed on with the page too.
 */
export function passRetryAfter({ actionHeaders, parentHeaders }: { actionHeaders: Headers; parentHeaders: Headers }) {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}
