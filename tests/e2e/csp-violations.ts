import type { Page } from "@playwright/test";

/**
 * Collects every Content-Security-Policy violation the page reports from now on: the browser's own console
 * message, and a `securitypolicyviolation` event written to the console by a script added to every document.
 */
export async function collectCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`Refused to load (Content Security Policy): ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return violations;
}
