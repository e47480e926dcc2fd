import { createHash } from "node:crypto";
import { publishInEveryMenuSection } from "./content-helpers.ts";
import { collectCspViolations } from "./csp-violations.ts";
import { E2E_BASE_URL, expect, PUBLIC_PAGES, test, waitForHydration, waitForQuiet } from "./fixtures.ts";

test("no page requests anything from another origin", async ({ page, makeUser, signInAs, database }) => {
  // Every page in both languages and themes, each waited on until the network is idle: a long walk.
  test.setTimeout(90_000);
  // The menu walked below offers the content pages only while they have a published entry.
  await publishInEveryMenuSection(database.db);
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  const isOwn = (url: string) =>
    url.startsWith(`${E2E_BASE_URL}/`) || url.startsWith("data:") || url.startsWith("blob:");

  // Every public page loaded directly, in both languages and both themes...
  for (const { path, heading } of PUBLIC_PAGES) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await waitForQuiet(page);
  }
  await page.goto("/home?lang=de");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Zum hellen Farbschema wechseln" }).click();
  await expect(page.locator("html")).toHaveClass("light");

  // ...reached by client-side navigation, with the footer dialog and the toasts of the sign-up form...
  const nav = page.getByRole("navigation", { name: "Hauptmenü" });
  for (const name of ["Galerie", "Links", "FAQ", "Videos", "Start"]) {
    await nav.getByRole("link", { name, exact: true }).click();
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
  }
  await page.getByRole("contentinfo").getByRole("link", { name: "Impressum" }).click();
  await expect(page.getByRole("dialog", { name: "Impressum" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.goto("/auth?mode=sign-up");
  await page.getByRole("tabpanel").getByRole("button", { name: "Registrieren" }).click();
  await expect(page.getByText("Einladungscode erforderlich")).toBeVisible();

  // ...and the admin dashboard.
  await signInAs(page, await makeUser({ admin: true }));
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Übersicht" })).toBeVisible();
  await waitForQuiet(page);

  expect(requested.length).toBeGreaterThan(20);
  expect(requested.filter((url) => !isOwn(url))).toEqual([]);
});

test("responses tell browsers not to leak or frame the site", async ({ request }) => {
  const response = await request.get("/");
  expect(response.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
});

test("a Content-Security-Policy keeps scripts and requests to this site, and the pages break none of it", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  await publishInEveryMenuSection(database.db);
  const violations = await collectCspViolations(page);

  const response = await page.goto("/");
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy).toContain("default-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  if (!/'nonce-/.test(policy)) {
    // A page kept for visitors (docs/decisions/001-page-cache.md) allows exactly its own inline scripts, by
    // hash: no nonce that every visitor would share.
    const html = (await response?.text()) ?? "";
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      (m) => !/\ssrc=/.test(m[1] ?? ""),
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const match of inline) {
      const hash = createHash("sha256")
        .update(match[2] ?? "", "utf8")
        .digest("base64");
      expect(policy).toContain(`'sha256-${hash}'`);
    }
  }
  // A page rendered for one response gets a new nonce every time, so its nonce cannot be reused by injected markup.
  const nonceOf = async () =>
    (await page.request.get("/auth")).headers()["content-security-policy"]?.match(/'nonce-([^']+)'/)?.[1];
  const nonce = await nonceOf();
  expect(nonce).toBeTruthy();
  expect(await nonceOf()).not.toBe(nonce);

  for (const { path } of PUBLIC_PAGES) {
    await page.goto(path);
    await waitForQuiet(page);
  }
  // The toast library adds a <style> element of its own: allowed by its hash, so the toast is styled (fixed in place).
  await page.goto("/auth");
  await waitForHydration(page);
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill("nobody-csp@example.test");
  await panel.getByLabel("Password").fill("not-the-password-1");
  await panel.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Sign in failed" })).toBeVisible();
  await expect(page.locator("[data-sonner-toaster]")).toHaveCSS("position", "fixed");
  expect(policy).not.toMatch(/style-src(-elem)? [^;]*'unsafe-inline'/);

  await signInAs(page, await makeUser({ admin: true }));
  await page.goto("/admin");
  await waitForQuiet(page);
  // The app still hydrates under the policy: client-side navigation works, with no new document.
  await waitForHydration(page);
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Links", exact: true }).click();
  await expect(page).toHaveURL("/links");
  await expect(page.getByRole("heading", { level: 1, name: "Links" })).toBeVisible();
  expect(documents).toEqual([]);

  expect(violations).toEqual([]);
});
