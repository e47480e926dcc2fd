import sharp from "sharp";
import { expectToastAfter, openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

// Site-wide changes: this spec runs after all others (project "site-wide" in playwright.config.ts), in order.
test.describe.configure({ mode: "serial" });

const SITE_NAME = "Jo's Photographs";
const FOOTER_DE = "Fotos aus den Bergen, mit Liebe gemacht.";
const DESCRIPTION = "Mountains, lakes and the people in between.";
const SAVED_ONE = "Saved. Settings changed: 1.";
const LAST_ADMIN = "The last admin cannot be removed";

test("an admin edits the site name, a German footer text and the meta description; a visitor sees them", async ({
  page,
  browser,
  makeUser,
  signInAs,
}) => {
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");

  const identity = page.getByRole("region", { name: "Site identity" });
  await identity.getByLabel("Site name", { exact: true }).fill(SITE_NAME);
  await expectToastAfter(page, SAVED_ONE, () => identity.getByRole("button", { name: "Save Site identity" }).click());

  const footer = page.getByRole("region", { name: "Footer" });
  await footer.getByLabel("Footer description (German)").fill(FOOTER_DE);
  await expectToastAfter(page, SAVED_ONE, () => footer.getByRole("button", { name: "Save Footer" }).click());

  const sharing = page.getByRole("region", { name: "Search and social sharing" });
  await sharing.getByLabel("Description for search and sharing").fill(DESCRIPTION);
  await expect(page.getByTestId("share-preview")).toContainText(DESCRIPTION);
  await expectToastAfter(page, SAVED_ONE, () =>
    sharing.getByRole("button", { name: "Save Search and social sharing" }).click(),
  );

  // A visitor, in a browser of their own.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto("/");
  await expect(visitor).toHaveTitle(SITE_NAME);
  await expect(visitor.locator('head meta[name="description"]')).toHaveAttribute("content", DESCRIPTION);
  await expect(visitor.locator('head meta[property="og:title"]')).toHaveAttribute("content", SITE_NAME);
  await expect(visitor.getByRole("contentinfo")).not.toContainText(FOOTER_DE);
  await setPreferences(visitor, { lang: "de" });
  await visitor.goto("/links");
  await expect(visitor).toHaveTitle(`Links · ${SITE_NAME}`);
  await expect(visitor.getByRole("contentinfo")).toContainText(FOOTER_DE);
  await context.close();
});

test("the audit log shows the settings change with its old and new value", async ({ page, makeUser, signInAs }) => {
  await signInAs(page, await makeUser({ admin: true }));
  await page.goto("/admin/audit");
  await page.getByLabel("Area").selectOption("settings");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/admin\/audit\?area=settings$/);

  const row = page.getByRole("row").filter({ hasText: "site_name" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("settings.update");
  await expect(row).toContainText("Vitrine");
  await expect(row).toContainText(SITE_NAME);
  await expect(page.getByRole("row").filter({ hasText: "footer_description_de" })).toContainText(FOOTER_DE);
  await expect(page.getByRole("row").filter({ hasText: "invites.create" })).toHaveCount(0);
});

test("the last admin can be neither demoted nor deleted", async ({ page, database, makeUser, signInAs }) => {
  const admin = await makeUser({ admin: true });
  // Every other test is done: leave this admin as the only one.
  await database.db.deleteFrom("user_roles").where("user_id", "!=", admin.id).execute();
  await signInAs(page, admin);
  await page.goto("/admin/users");
  await waitForHydration(page);
  const row = page.getByRole("row").filter({ hasText: admin.email });

  await expectToastAfter(page, LAST_ADMIN, async () => {
    await row.getByRole("button", { name: `Remove admin: ${admin.email}` }).click();
    await page
      .getByRole("alertdialog", { name: "Remove your own admin role?" })
      .getByRole("button", { name: "Yes, remove my admin role" })
      .click();
  });
  await expect(row.getByRole("cell").nth(1)).toHaveText("Admin");

  await expectToastAfter(page, LAST_ADMIN, async () => {
    await row.getByRole("button", { name: `Delete: ${admin.email}` }).click();
    await page
      .getByRole("alertdialog", { name: "Delete your own account?" })
      .getByRole("button", { name: "Yes, delete my account" })
      .click();
  });
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: admin.email })).toContainText("Admin");
});

test("an admin uploads a favicon; every page's head links its sizes", async ({ page, browser, makeUser, signInAs }) => {
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");
  const identity = page.getByRole("region", { name: "Site identity" });
  const png = await sharp({ create: { width: 256, height: 256, channels: 4, background: "#e11d48" } })
    .png()
    .toBuffer();

  await identity
    .getByLabel("Favicon image file")
    .setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: png });
  await identity.getByRole("button", { name: "Upload and save" }).nth(1).click();

  await expect(toast(page, "Uploaded and saved.")).toBeVisible();
  const field = identity.getByLabel("Favicon address");
  await expect(field).toHaveValue(/^\/media\/site\/favicon-[0-9a-f]{16}-32\.png$/);
  const url = await field.inputValue();

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto("/videos");
  for (const size of [32, 192, 512]) {
    await expect(visitor.locator(`head link[rel="icon"][sizes="${size}x${size}"]`)).toHaveAttribute(
      "href",
      url.replace("-32.png", `-${size}.png`),
    );
  }
  await expect(visitor.locator('head link[rel="apple-touch-icon"]')).toHaveAttribute(
    "href",
    url.replace("-32.png", "-180.png"),
  );
  const icon = await visitor.request.get(url);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toBe("image/png");
  await context.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("unticking the watermark switch and saving turns it off; ticking it turns it on again", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await signInAs(page, await makeUser({ admin: true }));
    await page.goto("/admin/settings");
    const watermark = () => page.getByRole("region", { name: "Watermark" });
    const box = () => watermark().getByRole("checkbox", { name: "Draw a watermark on gallery images" });
    await expect(box()).toBeChecked();

    await box().uncheck();
    await watermark().getByRole("button", { name: "Save Watermark" }).click();
    await expect(page.getByText("Saved. Settings changed: 1.")).toBeVisible();
    await page.goto("/admin/settings");
    await expect(box()).not.toBeChecked();

    await box().check();
    await watermark().getByRole("button", { name: "Save Watermark" }).click();
    await expect(page.getByText("Saved. Settings changed: 1.")).toBeVisible();
    await page.goto("/admin/settings");
    await expect(box()).toBeChecked();
  });
});
