import { gzipSync } from "node:zlib";
import { expect, test } from "./fixtures.ts";

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
    if (path === "/") {
      const gzipped = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body).length, 0);
      console.log(`JavaScript loaded by /: ${scripts.size} files, ${(gzipped / 1024).toFixed(1)} KiB gzipped`);
    }
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
