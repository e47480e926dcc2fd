import { clientNavigate, expect, test } from "./fixtures.ts";

test("a visitor at /admin signs in as an admin through the form and lands back on /admin", async ({
  page,
  makeUser,
}) => {
  const admin = await makeUser({ admin: true });
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toHaveCount(0);

  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill(admin.email);
  await panel.getByLabel("Password").fill(admin.password);
  await panel.getByRole("button", { name: "Sign in" }).click();

  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${admin.email}`)).toBeVisible();
});

test("a signed-in non-admin gets the 403 'No access' page", async ({ page, makeUser, signInAs }) => {
  const user = await makeUser();
  await signInAs(page, user);
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "No access" })).toBeVisible();
  await expect(page.getByText("You are signed in, but this area is for the site's admins only.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toHaveCount(0);
  // Still signed in: the header offers Sign out.
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
});

test("a non-admin reaching /admin by client-side navigation also gets 'No access'", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const user = await makeUser();
  await signInAs(page, user);
  await page.goto("/");
  await clientNavigate(page, "/admin");
  await expect(page.getByRole("heading", { level: 1, name: "No access" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toHaveCount(0);
});

test("a visitor reaching /admin by client-side navigation is sent to sign in", async ({ page }) => {
  await page.goto("/faq");
  await clientNavigate(page, "/admin");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fadmin$/);
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();
});

test("an admin sees the dashboard and an Admin link in the header", async ({ page, makeUser, signInAs }) => {
  const admin = await makeUser({ admin: true });
  await signInAs(page, admin);
  await page.goto("/");
  const adminLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" });
  await expect(adminLink).toBeVisible();
  await adminLink.click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const dashboard = page.getByRole("main");
  for (const section of [
    "Gallery",
    "Posts",
    "Links",
    "FAQ",
    "Videos",
    "Site settings",
    "Invite codes",
    "Users",
    "Outbox",
    "Audit log",
  ]) {
    await expect(dashboard.getByRole("navigation").getByRole("link", { name: section, exact: true })).toBeVisible();
    await expect(
      dashboard
        .getByRole("list")
        .last()
        .getByRole("link", { name: new RegExp(`^${section}`) }),
    ).toBeVisible();
  }
  await expect(page).toHaveTitle("Admin · Vitrine");
});

test("a non-admin does not see the Admin link", async ({ page, makeUser, signInAs }) => {
  const user = await makeUser();
  await signInAs(page, user);
  await page.goto("/");
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
});

test("a visitor does not see the Admin link", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
});
