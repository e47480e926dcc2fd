import sharp from "sharp";
import { createPost, setPostStatus } from "#app/domains/posts/post-admin.server.ts";
import { testAdmin } from "#tests/support/service-actor.ts";
import { expectToastAfter, openAsNewAdmin, openSettingsSection, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
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

  const footer = await openSettingsSection(page, "Footer");
  await footer.getByLabel("Footer description (German)").fill(FOOTER_DE);
  await expectToastAfter(page, SAVED_ONE, () => footer.getByRole("button", { name: "Save Footer" }).click());

  const sharing = await openSettingsSection(page, "Search and social sharing");
  await sharing.getByLabel("Description for search and sharing (English)").fill(DESCRIPTION);
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

test("a visitor's open page takes a settings change without reloading", async ({
  page,
  browser,
  makeUser,
  signInAs,
}) => {
  const context = await browser.newContext();
  try {
    const visitor = await context.newPage();
    await visitor.goto("/faq");
    await waitForHydration(visitor);
    await expect(visitor.locator("html")).toHaveAttribute("data-live", "connected", { timeout: 15_000 });
    // Marks this document: a reload would lose it.
    await visitor.evaluate(() => Object.assign(window, { sameDocument: true }));

    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");
    const footer = await openSettingsSection(page, "Footer");
    const field = footer.getByLabel("Footer description (English)");
    const before = await field.inputValue();
    const text = `Live footer ${Date.now()}`;
    await field.fill(text);
    await expectToastAfter(page, SAVED_ONE, () => footer.getByRole("button", { name: "Save Footer" }).click());

    await expect(visitor.getByRole("contentinfo")).toContainText(text, { timeout: 5_000 });
    expect(await visitor.evaluate(() => "sameDocument" in window)).toBe(true);

    await field.fill(before);
    await expectToastAfter(page, /Saved\./, () => footer.getByRole("button", { name: "Save Footer" }).click());
    await expect(visitor.getByRole("contentinfo")).not.toContainText(text, { timeout: 5_000 });
  } finally {
    await context.close();
  }
});

test("a section saved elsewhere while it is edited here is announced; a save then is refused until the admin chooses", async ({
  page,
  browser,
  makeUser,
  signInAs,
  database,
}) => {
  const field = "Footer description (English)";
  const stored = async () =>
    (
      await database.db
        .selectFrom("site_settings")
        .select("value")
        .where("key", "=", "footer_description")
        .executeTakeFirst()
    )?.value ?? "";
  const before = await stored();
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");
  const footer = await openSettingsSection(page, "Footer");
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected", { timeout: 15_000 });
  await footer.getByLabel(field).fill("Mine: a footer typed here.");

  // Another admin saves the same field.
  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    await openAsNewAdmin(other, { makeUser, signInAs }, "/admin/settings");
    const theirs = await openSettingsSection(other, "Footer");
    await theirs.getByLabel(field).fill("Theirs: a footer saved elsewhere.");
    await expectToastAfter(other, SAVED_ONE, () => theirs.getByRole("button", { name: "Save Footer" }).click());
  } finally {
    await context.close();
  }

  // Announced here without a reload, the text typed here kept.
  const banner = page.getByRole("region", { name: "Saved elsewhere while you were editing" });
  await expect(banner).toBeVisible({ timeout: 5_000 });
  await expect(banner.getByRole("alert")).toContainText("Footer description (Footer)");
  await expect(footer.getByLabel(field)).toHaveValue("Mine: a footer typed here.");
  await banner.getByRole("button", { name: "See both" }).click();
  await expect(banner.getByRole("definition")).toContainText("Theirs: a footer saved elsewhere.");
  await expectNoViolations(page, "the settings conflict choice");

  // Saving before choosing is refused: theirs stays.
  await expectToastAfter(page, /Nothing was saved/, () => footer.getByRole("button", { name: "Save Footer" }).click());
  expect(await stored()).toBe("Theirs: a footer saved elsewhere.");

  // Keep mine, then the save replaces theirs; and back to what the spec started with.
  await banner.getByRole("button", { name: "Keep mine" }).click();
  await expect(banner).toBeHidden();
  await expectToastAfter(page, SAVED_ONE, () => footer.getByRole("button", { name: "Save Footer" }).click());
  expect(await stored()).toBe("Mine: a footer typed here.");
  await footer.getByLabel(field).fill(before);
  await expectToastAfter(page, /Saved\./, () => footer.getByRole("button", { name: "Save Footer" }).click());
});

test("the owner reorders the menu from the keyboard; every page's header follows, in both languages", async ({
  page,
  browser,
  makeUser,
  signInAs,
  database,
}) => {
  // A published post, so the blog is in the menu whichever specs ran before.
  const post = await createPost(database.db, testAdmin, { title: `Menu order ${Date.now()}` });
  if (!post.ok) throw new Error("the post was refused");
  await setPostStatus(database.db, testAdmin, post.post.id, { status: "published" });
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings?section=pages");
  const pages = page.getByRole("region", { name: "Page titles" });
  const order = pages.getByRole("list", { name: "Order of the menu" });
  await expect(order.getByRole("listitem")).toHaveText([
    "1.Gallery",
    "2.Home",
    "3.Links",
    "4.FAQ",
    "5.Videos",
    "6.Blog",
    "7.Contact",
    "8.Albums",
  ]);
  // Home to the top, FAQ up one: by keyboard, each move announced, the focus staying with the moved entry.
  await pages.getByRole("button", { name: "Move “Home” up" }).focus();
  await page.keyboard.press("Enter");
  await expect(pages.getByText("Home: 1 / 8")).toBeAttached();
  // At the top "up" is disabled: the focus went to "down" of the same entry.
  await expect(pages.getByRole("button", { name: "Move “Home” up" })).toBeDisabled();
  await expect(pages.getByRole("button", { name: "Move “Home” down" })).toBeFocused();
  await pages.getByRole("button", { name: "Move “FAQ” up" }).focus();
  await page.keyboard.press("Space");
  await expect(pages.getByRole("button", { name: "Move “FAQ” up" })).toBeFocused();
  await expect(order.getByRole("listitem")).toHaveText([
    "1.Home",
    "2.Gallery",
    "3.FAQ",
    "4.Links",
    "5.Videos",
    "6.Blog",
    "7.Contact",
    "8.Albums",
  ]);
  await pages.getByLabel("Show empty sections in the menu").check();
  await expectToastAfter(page, "Saved. Settings changed: 2.", () =>
    pages.getByRole("button", { name: "Save Page titles" }).click(),
  );

  const context = await browser.newContext();
  try {
    const visitor = await context.newPage();
    for (const path of ["/", "/faq", "/home"]) {
      await visitor.goto(path);
      await expect(visitor.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText([
        "Home",
        "Gallery",
        "FAQ",
        "Links",
        "Videos",
        "Blog",
        "Albums",
      ]);
    }
    await setPreferences(visitor, { lang: "de" });
    await visitor.goto("/links");
    await expect(visitor.getByRole("navigation", { name: "Hauptmenü" }).getByRole("link")).toHaveText([
      "Start",
      "Galerie",
      "FAQ",
      "Links",
      "Videos",
      "Blog",
      "Alben",
    ]);
  } finally {
    await context.close();
    // The other specs' menus as they expect them.
    for (const [key, value] of [
      ["menu_order", "gallery,home,links,faq,videos,blog,contact,albums"],
      ["menu_show_empty_sections", "false"],
    ] as const) {
      await database.db.updateTable("site_settings").set({ value }).where("key", "=", key).execute();
    }
  }
});

test("the audit log shows the settings change with its old and new value", async ({ page, makeUser, signInAs }) => {
  await signInAs(page, await makeUser({ admin: true }));
  await page.goto("/admin/audit");
  await page.getByLabel("Area").selectOption("settings");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/admin\/audit\?area=settings$/);

  const row = page.getByRole("row").filter({ hasText: "changed the setting “Site name”" });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("deletion")).toContainText("Vitrine");
  await expect(row.getByRole("insertion")).toContainText(SITE_NAME);
  const footer = page.getByRole("row").filter({ hasText: "changed the setting “Footer description (German)”" });
  await expect(footer.getByRole("insertion")).toContainText(FOOTER_DE);
  await expect(page.getByRole("row").filter({ hasText: "created the invite code" })).toHaveCount(0);
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
  // Shown as a thumbnail (its 192 px size), with the address folded away.
  const thumbnail = identity.getByRole("img", { name: "Current favicon" });
  await expect(thumbnail).toHaveAttribute("src", url.replace("-32.png", "-192.png"));
  await expect(field).toBeHidden();

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
  // Clients that ask for /favicon.ico unprompted (feed readers, bookmarks) get the uploaded icon too.
  const ico = await visitor.request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toBe("image/png");
  expect(Buffer.compare(await ico.body(), await icon.body())).toBe(0);
  await context.close();
});

test("a logo sits beside the site name in the header; settings show it as a thumbnail to replace or remove", async ({
  page,
  browser,
  makeUser,
  signInAs,
}) => {
  // Two uploads and four visits at two widths.
  test.slow();
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings");
  const identity = page.getByRole("region", { name: "Site identity" });
  await expect(identity.getByText("No logo yet: the header shows the site name alone.")).toBeVisible();
  const upload = async (width: number, height: number, colour: string) => {
    const png = await sharp({ create: { width, height, channels: 4, background: colour } })
      .png()
      .toBuffer();
    await identity
      .getByLabel("Logo image file")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
    await expectToastAfter(page, "Uploaded and saved.", () =>
      identity.getByRole("button", { name: "Upload and save" }).first().click(),
    );
  };
  const thumbnail = identity.getByRole("img", { name: "Current logo" });
  const loaded = (image: typeof thumbnail) =>
    expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  const context = await browser.newContext();
  const visitor = await context.newPage();
  /** The header's home link at a width: the logo beside the name, as tall as the name's line, nothing cut off. */
  const expectBesideName = async (width: number) => {
    await visitor.setViewportSize({ width, height: 800 });
    await visitor.goto("/links");
    const home = visitor.getByRole("banner").getByRole("link", { name: `${SITE_NAME}, home` });
    const logo = home.locator("img");
    const name = home.getByText(SITE_NAME, { exact: true });
    await expect(logo).toBeVisible();
    await expect(name).toBeVisible();
    await loaded(logo);
    const [logoBox, nameBox] = [await logo.boundingBox(), await name.boundingBox()];
    if (!logoBox || !nameBox) throw new Error("no layout");
    expect(logoBox.x + logoBox.width).toBeLessThanOrEqual(nameBox.x);
    expect(logoBox.height).toBeLessThanOrEqual(nameBox.height + 8);
    expect(Math.abs(logoBox.y + logoBox.height / 2 - (nameBox.y + nameBox.height / 2))).toBeLessThan(4);
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    return logoBox;
  };

  // A square logo: a mark beside the name, not a lone tile instead of it.
  await upload(256, 256, "#0ea5e9");
  await expect(thumbnail).toBeVisible();
  await loaded(thumbnail);
  const squareSrc = await thumbnail.getAttribute("src");
  expect(squareSrc).toMatch(/^\/media\/site\/logo-/);
  // The thumbnail, not its file path, is what the screen shows.
  await expect(identity.getByText(squareSrc ?? "")).toHaveCount(0);
  for (const width of [1280, 390]) {
    const box = await expectBesideName(width);
    expect(Math.round(box.width)).toBe(Math.round(box.height));
  }

  // Replaced by a wide one: as tall, capped in width on a phone so that the name and buttons still fit.
  await upload(1200, 300, "#f97316");
  await expect(thumbnail).not.toHaveAttribute("src", squareSrc ?? "");
  await loaded(thumbnail);
  expect((await expectBesideName(1280)).width).toBeGreaterThan(100);
  expect((await expectBesideName(390)).width).toBeLessThanOrEqual(80);

  // Removed, after asking: the name stands alone again.
  await identity.getByRole("button", { name: "Remove logo" }).click();
  await expectToastAfter(page, SAVED_ONE, () =>
    page.getByRole("alertdialog", { name: "Remove this image?" }).getByRole("button", { name: "Remove logo" }).click(),
  );
  await expect(identity.getByText("No logo yet: the header shows the site name alone.")).toBeVisible();
  await visitor.goto("/links");
  const home = visitor.getByRole("banner").getByRole("link", { name: `${SITE_NAME}, home` });
  await expect(home).toHaveText(SITE_NAME);
  await expect(home.locator("img")).toHaveCount(0);
  await context.close();
});

test("the share image shows as a thumbnail in its section", async ({ page, makeUser, signInAs }) => {
  await openAsNewAdmin(page, { makeUser, signInAs }, "/admin/settings?section=sharing");
  const sharing = page.getByRole("region", { name: "Search and social sharing" });
  await expect(sharing.getByText("No share image yet")).toBeVisible();
  const png = await sharp({ create: { width: 1200, height: 630, channels: 4, background: "#16a34a" } })
    .png()
    .toBuffer();
  await sharing.getByLabel("Share image file").setInputFiles({ name: "card.png", mimeType: "image/png", buffer: png });
  await expectToastAfter(page, "Uploaded and saved.", () =>
    sharing.getByRole("button", { name: "Upload and save" }).click(),
  );
  const thumbnail = sharing.getByRole("img", { name: "Current share image" });
  await expect(thumbnail).toHaveAttribute("src", /^\/media\/site\/share-/);
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  // Removed again: the share cards of the tests after this one show the shipped picture.
  await sharing.getByRole("button", { name: "Remove share image" }).click();
  await expectToastAfter(page, SAVED_ONE, () =>
    page
      .getByRole("alertdialog", { name: "Remove this image?" })
      .getByRole("button", { name: "Remove share image" })
      .click(),
  );
  await expect(sharing.getByText("No share image yet")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("unticking the watermark switch and saving turns it off; ticking it turns it on again", async ({
    page,
    makeUser,
    signInAs,
  }) => {
    await signInAs(page, await makeUser({ admin: true }));
    await page.goto("/admin/settings?section=watermark");
    const watermark = () => page.getByRole("region", { name: "Watermark" });
    const box = () => watermark().getByRole("checkbox", { name: "Draw a watermark on gallery images" });
    await expect(box()).toBeChecked();

    await box().uncheck();
    await watermark().getByRole("button", { name: "Save Watermark" }).click();
    await expect(page.getByText("Saved. Settings changed: 1.")).toBeVisible();
    await page.goto("/admin/settings?section=watermark");
    await expect(box()).not.toBeChecked();

    await box().check();
    await watermark().getByRole("button", { name: "Save Watermark" }).click();
    await expect(page.getByText("Saved. Settings changed: 1.")).toBeVisible();
    await page.goto("/admin/settings?section=watermark");
    await expect(box()).toBeChecked();
  });
});
