import { gzipSync } from "node:zlib";
import { expect, test } from "./fixtures.ts";

/** Gzipped JavaScript a visitor's page may load (React, the router and the page's own code). */
const JS_BUDGET_KIB = 150;

const publicPaths = ["/", "/home", "/links", "/faq", "/videos", "/legal-notice", "/privacy"];

// Strings that only exist in the sign-in/sign-up form, the toast library and the admin screens.
const forbiddenMarkers = ["inviteCode", "data-sonner-toaster", "admin.section.settings", "current-password"];

for (const path of publicPaths) {
  test(`a visitor's page ${path} loads no auth-form, toast or admin code`, async ({ page }) => {
    const scripts = new Map<string, Buffer>();
    page.on("response", async (response) => {
      if (response.request().resourceType() === "script") scripts.set(response.url(), await response.body());
    });
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(scripts.size).toBeGreaterThan(0);
    for (const [url, body] of scripts) {
      for (const marker of forbiddenMarkers) {
        expect(body.includes(marker), `${url} contains "${marker}"`).toBe(false);
      }
    }
    const gzipped = [...scripts].map(([url, body]) => ({ url, kib: gzipSync(body).length / 1024 }));
    const total = gzipped.reduce((sum, file) => sum + file.kib, 0);
    console.log(
      `JavaScript loaded by ${path}: ${scripts.size} files, ${total.toFixed(1)} KiB gzipped (${gzipped
        .sort((a, b) => b.kib - a.kib)
        .map((file) => `${new URL(file.url).pathname.replace("/assets/", "")} ${file.kib.toFixed(1)}`)
        .join(", ")})`,
    );
    // React and the router are most of it; a development build of React alone would be over this.
    expect(total).toBeLessThan(JS_BUDGET_KIB);
  });
}

test("the auth page does load its form code (the check above can see it)", async ({ page }) => {
  const bodies: string[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script") bodies.push(await response.text());
  });
  await page.goto("/auth");
  await page.waitForLoadState("networkidle");
  expect(bodies.some((body) => body.includes("inviteCode"))).toBe(true);
});
