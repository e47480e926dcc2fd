import { toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { addInAdmin, uniqueName } from "./content-helpers.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

test("an admin's actions read as sentences on the audit log, with a diff that fits at 1280 and 390 px", async ({
  page,
  makeUser,
  signInAs,
}) => {
  // Many steps through four screens: more than one default test time on a busy machine.
  test.slow();
  const admin = await makeUser({ admin: true });
  const max = await makeUser();
  await signInAs(page, admin);
  await page.setViewportSize(DESKTOP);

  // Two links, the second with an address longer than any column; then the second is moved up.
  const first = uniqueName("Audit first");
  const second = uniqueName("Audit second");
  const longUrl = `https://example.com/${"very-long-path-".repeat(16)}end`;
  await page.goto("/admin/links");
  await waitForHydration(page);
  await addInAdmin(page, "Add a link", { "Title (English)": first, "Address (URL)": "https://example.com/a" }, first);
  await addInAdmin(page, "Add a link", { "Title (English)": second, "Address (URL)": longUrl }, second);
  // Other tests add links at the same time; a move sent with a list that has changed since the page loaded is
  // refused ("The list has changed in the meantime…") and changes nothing: then the page is reloaded and it is
  // moved again.
  await expect(async () => {
    await page.reload();
    await waitForHydration(page);
    await page.getByRole("button", { name: `Move “${second}” up` }).click();
    await expect(toast(page, "Order saved")).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 45_000 });

  // Make max an admin, confirmed in the dialog.
  await page.goto("/admin/users");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Make admin: ${max.email}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Make admin" }).click();
  await expect(toast(page, `${max.email} is now an admin.`)).toBeVisible();

  await page.goto("/admin/audit");
  const rows = page.getByRole("row");
  await expect(rows.filter({ hasText: `${admin.email} made ${max.email} an admin` })).toHaveCount(1);
  await expect(rows.filter({ hasText: `${admin.email} added the link “${first}”` })).toHaveCount(1);
  const moved = rows.filter({ hasText: new RegExp(`${admin.email} moved the link “${second}” (up|to the top)`) });
  await expect(moved).toHaveCount(1);
  await expect(moved.getByRole("deletion")).toBeVisible();
  // The long address: shortened in the diff, the whole of it one click away.
  const added = rows.filter({ hasText: `${admin.email} added the link “${second}”` });
  const address = added.getByRole("insertion").filter({ hasText: "very-long-path" });
  await expect(address).toContainText("…");
  await address.getByText("Show the full text").click();
  await expect(address).toContainText(`${longUrl.slice(-40)}`);

  const noSideScroll = () =>
    page.evaluate(() => {
      const root = document.scrollingElement as Element;
      return root.scrollWidth <= root.clientWidth;
    });
  expect(await noSideScroll()).toBe(true);

  // In German, the same entries in German sentences.
  await setPreferences(page, { lang: "de" });
  await page.goto("/admin/audit");
  await expect(page.getByText(`${admin.email} hat ${max.email} zum Admin gemacht`)).toBeVisible();
  await expect(page.getByText(`${admin.email} hat den Link „${first}“ angelegt`)).toBeVisible();
  await setPreferences(page, { lang: "en" });

  // On a phone: each entry a card (when, sentence, changes), the page never wider than the screen.
  await page.setViewportSize(PHONE);
  await page.goto("/admin/audit");
  const sentence = page.getByText(`${admin.email} made ${max.email} an admin`);
  await expect(sentence).toBeVisible();
  const card = await page.locator("tbody tr").first().boundingBox();
  expect(card?.width).toBeLessThanOrEqual(PHONE.width);
  await expect(page.locator("thead")).toHaveCSS("position", "absolute");
  expect(await noSideScroll()).toBe(true);
});

for (const theme of ["light", "dark"] as const) {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`the audit log: axe finds nothing, no side-scrolling (${theme}, ${viewport.width} px)`, async ({
      page,
      makeUser,
      signInAs,
    }) => {
      await setPreferences(page, { theme });
      await page.setViewportSize(viewport);
      await signInAs(page, await makeUser({ admin: true }));
      // An entry with a diff and one with a long value, whatever other tests have written so far.
      await page.goto("/admin/links");
      await waitForHydration(page);
      const name = uniqueName("Axe link");
      await addInAdmin(page, "Add a link", { "Title (English)": name, "Address (URL)": "https://example.com/x" }, name);
      await page.goto("/admin/audit");
      await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
      await expect(page.getByRole("insertion").first()).toBeVisible();
      await expectNoViolations(page, `/admin/audit (${theme}, ${viewport.width} px)`);
      const fits = await page.evaluate(() => {
        const root = document.scrollingElement as Element;
        return root.scrollWidth <= root.clientWidth;
      });
      expect(fits).toBe(true);
    });
  }
}
