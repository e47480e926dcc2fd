import type { Browser, BrowserContextOptions, Page } from "@playwright/test";
import { THEME_SCRIPT } from "#app/lib/preferences.ts";
import { expectToastAfter, openAsNewAdmin } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { E2E_BASE_URL, expect, test, waitForHydration } from "./fixtures.ts";

// Site-wide: the site's default theme changes what every first visit sees. This spec runs after all others
// (project "site-wide" in playwright.config.ts), in order, and puts the default back at the end.
test.describe.configure({ mode: "serial" });

const HINT = "sec-ch-prefers-color-scheme";

type FirstPaint = { atFirstBody: string; atDomContentLoaded: string; classes: string[]; lang: string };

/**
 * Opens `path` in a fresh browser with these preferences, and records from before the page's first byte every
 * class its <html> had: the one the parser made, each change after it, and the one at DOMContentLoaded (the
 * stylesheet blocks the first paint until then at the earliest, so a class changed later would be a flash).
 */
async function firstVisit(
  browser: Browser,
  path: string,
  options: BrowserContextOptions & { withoutHint?: boolean },
): Promise<{
  page: Page;
  first: FirstPaint;
  csp: string[];
  hints: (string | undefined)[];
  served: string[];
  close: () => Promise<void>;
}> {
  const { withoutHint, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const csp = await collectCspViolations(page);
  const hints: (string | undefined)[] = [];
  const served: string[] = [];
  if (withoutHint) {
    // A browser without client hints (Firefox, Safari). Chromium adds the hint below Playwright's interception,
    // so the page itself is fetched by Playwright with the browser's headers and nothing else, and handed over.
    await page.route(`${E2E_BASE_URL}/**`, async (route) => {
      if (!route.request().isNavigationRequest()) return route.continue();
      const headers = await route.request().allHeaders();
      hints.push(headers[HINT]);
      return route.fulfill({ response: await route.fetch({ headers, maxRedirects: 0 }) });
    });
  }
  // The server's own answer: with the hint, a light page is rendered light (Chromium adds the hint in its network
  // stack, after Playwright's request event; Critical-CH has a first request without it repeated with it).
  page.on("response", async (response) => {
    if (!response.request().isNavigationRequest()) return;
    const html = await response.text().catch(() => "");
    served.push(
      `${html.match(/<html[^>]*>/)?.[0] ?? ""}${html.includes(THEME_SCRIPT) ? " with the theme script" : ""}`,
    );
  });
  await page.addInitScript(() => {
    const record = { atFirstBody: "", atDomContentLoaded: "", classes: [] as string[], lang: "" };
    (window as unknown as { firstPaint: typeof record }).firstPaint = record;
    // Watching the whole document from before <html> exists: the parser inserting it with its class, then every
    // change of that class. Mutation callbacks run before the browser may render again, so the class seen with
    // the first <body> is the one of the earliest possible paint.
    new MutationObserver(() => {
      const now = document.documentElement?.className;
      if (now !== undefined && now !== record.classes.at(-1)) record.classes.push(now);
      if (document.body && record.atFirstBody === "") record.atFirstBody = now ?? "";
    }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
    document.addEventListener("DOMContentLoaded", () => {
      record.atDomContentLoaded = document.documentElement.className;
      record.lang = document.documentElement.lang;
    });
  });
  await page.goto(path);
  await waitForHydration(page);
  const first = await page.evaluate(() => (window as unknown as { firstPaint: FirstPaint }).firstPaint);
  await expect.poll(() => served.length).toBeGreaterThan(0);
  return { page, first, csp, hints, served, close: () => context.close() };
}

test("an admin lets first visits follow the visitor's system; the settings section passes axe in both themes", async ({
  page,
  makeUser,
  signInAs,
}) => {
  // Two axe runs on the settings screen: long on a loaded machine.
  test.slow();
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings?section=identity");
  const identity = page.getByRole("region", { name: "Site identity" });
  const select = identity.getByLabel("Theme for a first visit");
  await expect(select).toHaveValue("dark");
  await expect(identity.getByText("What a visitor sees until they choose with the theme switch.")).toBeVisible();
  await expectNoViolations(page, "settings: site identity, dark");
  await select.selectOption({ label: "The visitor's system setting" });
  await expectToastAfter(page, "Saved. Settings changed: 1.", () =>
    identity.getByRole("button", { name: "Save Site identity" }).click(),
  );
  await page.reload();
  await expect(page.getByRole("region", { name: "Site identity" }).getByLabel("Theme for a first visit")).toHaveValue(
    "system",
  );
  // The admin has not chosen a theme either, and this browser's system is light (Playwright's default).
  await expect(page.locator("html")).toHaveClass("light");
  await expect(page.getByRole("button", { name: "Switch to dark theme" })).toBeVisible();
  await expectNoViolations(page, "settings: site identity, light");
});

test("a light system gets the light page from the first byte, in the browser's German, with no flash", async ({
  browser,
}) => {
  const visit = await firstVisit(browser, "/home", { colorScheme: "light", locale: "de-DE" });
  try {
    expect(visit.first.lang).toBe("de");
    expect(visit.first.atDomContentLoaded).toBe("light");
    expect(
      visit.first.classes.every((name) => name === "light"),
      visit.first.classes.join(" → "),
    ).toBe(true);
    await expect(visit.page.getByRole("button", { name: "Zum dunklen Farbschema wechseln" })).toBeVisible();
    expect(visit.csp).toEqual([]);
    // Nothing is remembered until the visitor chooses.
    expect(await visit.page.context().cookies()).toEqual([]);
    // Rendered light by the server, from the colour scheme hint; the script agrees and changes nothing.
    expect(visit.served.at(-1)).toBe('<html lang="de" class="light"> with the theme script');
  } finally {
    await visit.close();
  }
});

test("a dark system gets the dark page, in the browser's English", async ({ browser }) => {
  const visit = await firstVisit(browser, "/links", { colorScheme: "dark", locale: "en-GB" });
  try {
    expect(visit.first.lang).toBe("en");
    expect(visit.first.atFirstBody).toBe("dark");
    expect(visit.first.atDomContentLoaded).toBe("dark");
    expect(visit.first.classes.at(-1)).toBe("dark");
    // Chromium's hint reports the machine's scheme, not Playwright's emulated one: the server may have rendered
    // light, and the head's script made it dark before anything was painted.
    expect(visit.served.at(-1)).toMatch(/^<html lang="en" class="(light|dark)"> with the theme script$/);
    await expect(visit.page.getByRole("button", { name: "Switch to light theme" })).toBeVisible();
    expect(visit.csp).toEqual([]);
  } finally {
    await visit.close();
  }
});

test("a browser without the hint is turned light by the head's script before the first paint, within the CSP", async ({
  browser,
}) => {
  const visit = await firstVisit(browser, "/faq", { colorScheme: "light", locale: "en-US", withoutHint: true });
  try {
    expect(visit.hints.length).toBeGreaterThan(0);
    expect(visit.hints.every((hint) => hint === undefined)).toBe(true);
    expect(visit.served.at(-1)).toBe('<html lang="en" class="dark"> with the theme script');
    // The server sent the dark page; before anything could be painted the script had made it light.
    expect(visit.first.atFirstBody).toBe("light");
    expect(visit.first.atDomContentLoaded).toBe("light");
    expect(visit.first.classes.at(-1)).toBe("light");
    await expect(visit.page.locator("html")).toHaveClass("light");
    expect(visit.csp).toEqual([]);
    // The switch knows the page is light, and the visitor's choice then wins over the system.
    await visit.page.getByRole("button", { name: "Switch to dark theme" }).click();
    await expect(visit.page.locator("html")).toHaveClass("dark");
    await visit.page.reload();
    await expect(visit.page.locator("html")).toHaveClass("dark");
    await expect(visit.page.getByRole("button", { name: "Switch to light theme" })).toBeVisible();
    expect(visit.csp).toEqual([]);
  } finally {
    await visit.close();
  }
});

test("a remembered choice wins over the browser's language and colour scheme", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "light", locale: "de-DE" });
  await context.addCookies([
    { name: "theme", value: "dark", url: E2E_BASE_URL },
    { name: "lang", value: "en", url: E2E_BASE_URL },
  ]);
  const page = await context.newPage();
  try {
    await page.goto("/home");
    await expect(page.locator("html")).toHaveClass("dark");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  } finally {
    await context.close();
  }
});

test("back to dark for first visits: a light system gets the dark page again", async ({ page, makeUser, signInAs }) => {
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings?section=identity");
  const identity = page.getByRole("region", { name: "Site identity" });
  await identity.getByLabel("Theme for a first visit").selectOption("dark");
  await expectToastAfter(page, "Saved. Settings changed: 1.", () =>
    identity.getByRole("button", { name: "Save Site identity" }).click(),
  );
  const visit = await firstVisit(page.context().browser() as Browser, "/home", { colorScheme: "light" });
  try {
    expect(visit.first.atDomContentLoaded).toBe("dark");
    await waitForHydration(visit.page);
  } finally {
    await visit.close();
  }
});
