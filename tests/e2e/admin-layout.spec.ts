import type { Locator, Page } from "@playwright/test";
import { adminSections } from "#app/components/admin/admin-sections.ts";
import { deleteGalleryEntry } from "#app/domains/gallery/gallery-admin.server.ts";
import { createGalleryPicture, factoryActor, storageIn } from "#tests/support/gallery-factories.ts";
import { openAsNewAdmin } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { E2E_DATA_DIR } from "./e2e-env.ts";
import { expect, setPreferences, test } from "./fixtures.ts";

// The admin area's layout on a phone (390 × 844) and a laptop (1280 × 800): the section menu, the gallery's
// rows, the settings form. Nothing here changes what visitors see (its one picture is hidden, and deleted after).

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The element lies within the screen's width and is not cut by its own box. */
async function expectWhole(locator: Locator, label: string) {
  const { left, right, cut } = await locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { left: box.left, right: box.right, cut: element.scrollWidth > element.clientWidth };
  });
  expect(cut, `${label} is cut`).toBe(false);
  expect(left, label).toBeGreaterThanOrEqual(0);
  expect(right, label).toBeLessThanOrEqual(await locator.page().evaluate(() => window.innerWidth));
}

const adminNav = (page: Page) => page.getByRole("navigation", { name: "Admin sections" });

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("the admin menu names the current section and opens as a list, not a strip scrolling sideways", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/audit");
    const nav = adminNav(page);
    // Closed, its button says where the admin is, in view.
    const button = nav.locator("summary");
    await expect(button).toContainText("Audit log");
    await expect(button).toBeInViewport({ ratio: 1 });
    await expect(nav.getByRole("link", { name: "Users" })).toBeHidden();
    await expectNoSidewaysScroll(page);

    await button.click();
    const links = nav.getByRole("link");
    // The dashboard and every section of the admin area.
    await expect(links).toHaveCount(adminSections.length + 1);
    // Every section one under another, whole within the screen; the current one marked.
    for (const link of await links.all()) await expectWhole(link, (await link.textContent()) ?? "");
    const current = nav.getByRole("link", { name: "Audit log" });
    await expect(current).toHaveAttribute("aria-current", "page");
    await expect(current).toBeInViewport({ ratio: 1 });
    await expectNoSidewaysScroll(page);

    // A choice goes there and closes the list; the button names the new section.
    await nav.getByRole("link", { name: "Invite codes" }).click();
    await expect(page).toHaveURL("/admin/invites");
    await expect(page.getByRole("heading", { level: 1, name: "Invite codes" })).toBeVisible();
    await expect(button).toContainText("Invite codes");
    await expect(nav.getByRole("link", { name: "Users" })).toBeHidden();
    // From the keyboard: the button opens it.
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(nav.getByRole("link", { name: "Invite codes" })).toHaveAttribute("aria-current", "page");
  });

  test("the gallery's rows show long titles and categories whole, with every control in reach", async ({
    page,
    makeUser,
    signInAs,
    database,
  }) => {
    const title = "Sunrise over the Oberwiesenthal ridge after the first snow of the year";
    const category = "Mountains and high valleys";
    const id = await createGalleryPicture(database.db, storageIn(E2E_DATA_DIR), {
      title,
      category,
      category_de: "Berge und Hochtäler",
      published: false,
    });
    try {
      await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
      const row = page
        .getByRole("list", { name: "Pictures in display order" })
        .getByRole("listitem")
        .filter({ has: page.getByText(title, { exact: true }) });
      await row.scrollIntoViewIfNeeded();
      await expectWhole(row.getByText(title, { exact: true }), "the title");
      await expectWhole(row.getByText(`${category} / Berge und Hochtäler`, { exact: false }), "the category");
      await expectNoSidewaysScroll(page);
      const quoted = `“${title}”`;
      for (const name of [
        `Select ${quoted}`,
        `Publish ${quoted}`,
        `Edit ${quoted}`,
        `Delete ${quoted}`,
        `Move ${quoted} up`,
        `Move ${quoted} to the top`,
      ]) {
        const control = row.getByRole(name.startsWith("Select") ? "checkbox" : "button", { name, exact: true });
        await expect(control, name).toBeVisible();
        await expectWhole(control, name);
      }
    } finally {
      await deleteGalleryEntry(database.db, factoryActor, id, storageIn(E2E_DATA_DIR));
    }
  });

  test("the settings form's English and German fields are one above the other, each the form's width", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings?section=pages");
    const region = page.getByRole("region", { name: "Page titles" });
    const english = await region.getByLabel("Gallery title (English)", { exact: true }).boundingBox();
    const german = await region.getByLabel("Gallery title (German)", { exact: true }).boundingBox();
    expect(german?.y ?? 0).toBeGreaterThan((english?.y ?? 0) + (english?.height ?? 0));
    expect(english?.width ?? 0).toBeGreaterThanOrEqual(300);
    expect(german?.width ?? 0).toBeGreaterThanOrEqual(300);
    await expectNoSidewaysScroll(page);
  });
});

test.describe("on a laptop", () => {
  test.use({ viewport: LAPTOP });

  test("the admin menu is a column beside the page, every section in view, the current one marked", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
    const nav = adminNav(page);
    await expect(nav.locator("summary")).toBeHidden();
    const current = nav.getByRole("link", { name: "Gallery" });
    await expect(current).toHaveAttribute("aria-current", "page");
    for (const link of await nav.getByRole("link").all()) await expect(link).toBeInViewport({ ratio: 1 });
    const main = await page.getByRole("heading", { level: 1, name: "Gallery" }).boundingBox();
    const box = await current.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThan(main?.x ?? 0);
  });

  test("the settings form has the whole width beside the menu: English and German fields side by side, each wide", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings?section=pages");
    const region = page.getByRole("region", { name: "Page titles" });
    const english = await region.getByLabel("Gallery subtitle (English)", { exact: true }).boundingBox();
    const german = await region.getByLabel("Gallery subtitle (German)", { exact: true }).boundingBox();
    expect(Math.abs((english?.y ?? 0) - (german?.y ?? 0))).toBeLessThan(2);
    // Before, a third column beside the section list left them 170 px each.
    expect(english?.width ?? 0).toBeGreaterThanOrEqual(320);
    expect(german?.width ?? 0).toBeGreaterThanOrEqual(320);
    // The sections are above the form, and stay in view over a long section.
    const sections = page.getByRole("navigation", { name: "Settings sections" });
    const list = await sections.boundingBox();
    const form = await region.boundingBox();
    expect((list?.y ?? 0) + (list?.height ?? 0)).toBeLessThanOrEqual(form?.y ?? 0);
    await page
      .getByRole("navigation", { name: "Settings sections" })
      .getByRole("link", { name: "Legal pages" })
      .click();
    await page.mouse.wheel(0, 1500);
    await expect(sections.getByRole("link", { name: "Legal pages" })).toBeInViewport();
    await expectNoSidewaysScroll(page);
  });
});

for (const viewport of [PHONE, LAPTOP]) {
  for (const theme of ["light", "dark"] as const) {
    test(`axe finds nothing on the admin's changed screens at ${viewport.width} px (${theme})`, async ({
      page,
      makeUser,
      signInAs,
    }) => {
      test.slow();
      await page.setViewportSize(viewport);
      await setPreferences(page, { theme });
      await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/gallery");
      await expect(page.locator("html")).toHaveClass(theme);
      if (viewport === PHONE) await adminNav(page).locator("summary").click();
      await expectNoViolations(page, `/admin/gallery at ${viewport.width} px (${theme})`);
      await page.goto("/admin/settings?section=watermark");
      await expect(page.getByRole("region", { name: "Watermark" })).toBeVisible();
      await expectNoViolations(page, `/admin/settings at ${viewport.width} px (${theme})`);
    });
  }
}
