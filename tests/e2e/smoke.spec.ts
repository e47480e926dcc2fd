import { expect, test } from "./fixtures.ts";

test("an admin signed in by fixture sees the dashboard", async ({ page, makeUser, signInAs }) => {
  const admin = await makeUser({ admin: true });
  await signInAs(page, admin);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});
