import type { BrowserContext, Page, Request } from "@playwright/test";

/*
 * What `waitForLoadState("networkidle")` was for, now that every page holds its live stream open (issue 19), which
 * Playwright counts as a request that never ends: the browser tests and the screenshot and page-weight scripts wait
 * until a browser context has had no other request under way for a moment.
 */

const inFlight = new WeakMap<BrowserContext, Set<Request>>();

/** Starts counting the context's requests (the live stream left out); call it before the pages load. */
export function trackRequestsOf(context: BrowserContext): Set<Request> {
  const known = inFlight.get(context);
  if (known) return known;
  const requests = new Set<Request>();
  inFlight.set(context, requests);
  context.on("request", (request) => {
    if (new URL(request.url()).pathname !== "/api/events") requests.add(request);
  });
  context.on("requestfinished", (request) => requests.delete(request));
  context.on("requestfailed", (request) => requests.delete(request));
  return requests;
}

/** Waits for the page's load, then until its context has had no request under way for `quietMs` (500). */
export async function waitForQuiet(page: Page, quietMs = 500) {
  await page.waitForLoadState("load");
  const requests = trackRequestsOf(page.context());
  let quietSince = Date.now();
  for (;;) {
    if (requests.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await page.waitForTimeout(50);
  }
}
