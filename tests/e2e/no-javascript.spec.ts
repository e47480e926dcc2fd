import { publishInEveryMenuSection } from "./content-helpers.ts";
import { expect, test } from "./fixtures.ts";

test.use({ javaScriptEnabled: false });

test("the home page reads without JavaScript", async ({ page }) => {
  await page.goto("/home");
  await expect(page.getByRole("heading", { level: 1, name: "Hello, and welcome" })).toBeVisible();
  await expect(page.getByText("Pictures, notes and links from my corner of the web.")).toBeVisible();
  await expect(page.getByText("Thanks for stopping by.")).toBeVisible();
  // The home text's Markdown is rendered on the server: its links to the site's own pages work without scripts.
  await expect(page.getByRole("main").getByRole("link", { name: "links", exact: true })).toHaveAttribute(
    "href",
    "/links",
  );
  await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getUTCFullYear()} Vitrine`);
});

test("plain links move between pages without JavaScript", async ({ page, database }) => {
  await publishInEveryMenuSection(database.db);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).click();
  await expect(page).toHaveURL("/faq");
  await expect(page.getByRole("heading", { level: 1, name: "Frequently asked questions" })).toBeVisible();
  // The footer entries are plain links to the full pages.
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy" }).click();
  await expect(page).toHaveURL("/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy policy" })).toBeVisible();
});

test("the theme and language switches work as plain form posts", async ({ page }) => {
  await page.goto("/home");
  await expect(page.locator("html")).toHaveClass("dark");
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expect(page).toHaveURL("/home");
  await expect(page.locator("html")).toHaveClass("light");
  await expect(page.getByRole("heading", { level: 1, name: "Hello, and welcome" })).toBeVisible();

  await page.getByRole("button", { name: "Auf Deutsch umschalten" }).click();
  await expect(page).toHaveURL("/home");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("heading", { level: 1, name: "Hallo und willkommen" })).toBeVisible();

  await page.goto("/links");
  await expect(page.locator("html")).toHaveClass("light");
  await expect(page.getByRole("heading", { level: 1, name: "Links" })).toBeVisible();
  await expect(page.getByText("Hier finden Sie mich sonst noch im Netz.")).toBeVisible();
});

test("sign-up messages show without JavaScript", async ({ page }) => {
  await page.goto("/auth?mode=sign-up");
  const panel = page.getByRole("tabpanel");
  await expect(panel.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
  await panel.getByLabel("E-mail").fill("nojs@example.test");
  await panel.getByLabel("Password").fill("A-long-enough-passphrase");
  await panel.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("alert")).toContainText("Invite code required");
  await expect(page.getByRole("alert")).toContainText("Please enter a valid invite code to register.");
});

test("the member groups screen works as plain form posts, its delete asked first", async ({
  page,
  makeUser,
  signInAs,
}) => {
  const member = await makeUser();
  await signInAs(page, await makeUser({ admin: true }));
  const name = `Plain ${Math.random().toString(36).slice(2, 8)}`;
  await page.goto("/admin/groups");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByText(`Group “${name}” created.`)).toBeVisible();

  const card = page.getByRole("region", { name });
  await card.getByLabel(`Add an account to “${name}”`).selectOption({ label: member.email });
  await card.getByRole("button", { name: "Add" }).click();
  await expect(page.getByText(`${member.email} is now in “${name}”.`)).toBeVisible();
  await expect(card).toContainText("Members: 1");

  // The same name in capitals: refused, the reason beside the field and the typed name kept.
  await page.getByLabel("Name", { exact: true }).fill(name.toUpperCase());
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByRole("alert")).toContainText("A group of that name exists already");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name.toUpperCase());

  // Without the dialog, a disclosure says what deleting does before its button.
  await card.locator("summary").click();
  await expect(card).toContainText("visible to admins only");
  await card.getByRole("button", { name: "Delete group" }).click();
  await expect(page.getByText(`Group “${name}” deleted.`)).toBeVisible();
  await expect(page.getByRole("region", { name })).toHaveCount(0);
});
