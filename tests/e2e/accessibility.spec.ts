import { expectNoViolations } from "./axe.ts";
import { publishInEveryMenuSection } from "./content-helpers.ts";
import { expect, PUBLIC_PAGES, setPreferences, test, waitForHydration } from "./fixtures.ts";

for (const theme of ["light", "dark"] as const) {
  test.describe(`axe-core, ${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await setPreferences(page, { theme });
    });

    for (const { path, heading } of PUBLIC_PAGES) {
      test(`${path} has no violations`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator("html")).toHaveClass(theme);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
        await expectNoViolations(page, `${path} (${theme})`);
      });
    }

    test("the footer's legal dialog has no violations", async ({ page }) => {
      await page.goto("/home");
      await waitForHydration(page);
      await page.getByRole("contentinfo").getByRole("link", { name: "Legal notice" }).click();
      await expect(page.getByRole("dialog", { name: "Legal notice" })).toBeVisible();
      await expectNoViolations(page, `the legal notice dialog (${theme})`);
      await page.keyboard.press("Escape");
      await page.getByRole("contentinfo").getByRole("link", { name: "Privacy" }).click();
      await expect(page.getByRole("dialog", { name: "Privacy" })).toBeVisible();
      await expectNoViolations(page, `the privacy dialog (${theme})`);
    });

    test("the admin dashboard has no violations", async ({ page, makeUser, signInAs }) => {
      await signInAs(page, await makeUser({ admin: true }));
      await page.goto("/admin");
      await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      await expectNoViolations(page, `/admin (${theme})`);
    });

    test("the sign-up form with an error and a success toast has no violations", async ({ page, makeInvite }) => {
      await page.goto("/auth?mode=sign-up");
      const panel = page.getByRole("tabpanel");
      await expect(panel.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
      await panel.getByRole("button", { name: "Sign up" }).click();
      await expect(page.getByText("Invite code required")).toBeVisible();
      await expectNoViolations(page, `/auth with an error toast (${theme})`);

      await panel.getByLabel("E-mail").fill(`a11y-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`);
      await panel.getByLabel("Password").fill("A-long-enough-passphrase");
      await panel.getByLabel("Invite code").fill(await makeInvite());
      await panel.getByRole("button", { name: "Sign up" }).click();
      await expect(page.getByText("Account created successfully. Please sign in.")).toBeVisible();
      await expectNoViolations(page, `/auth with a success toast (${theme})`);
    });

    test("the open mobile menu has no violations", async ({ page, database }) => {
      await publishInEveryMenuSection(database.db);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/faq");
      await page.getByLabel("Open menu").click();
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Links" })).toBeVisible();
      await expectNoViolations(page, `the mobile menu (${theme})`);
    });
  });
}

test.describe("keyboard", () => {
  test("the skip link comes first and moves focus to the content", async ({ page }) => {
    await page.goto("/links");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    const box = await skip.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(20);
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
    await expect(page).toHaveURL(/#main$/);
  });

  test("tabbing reaches the nav links, the toggles and sign-in; the toggles work from the keyboard", async ({
    page,
    database,
  }) => {
    await publishInEveryMenuSection(database.db);
    await page.goto("/");
    const reached: string[] = [];
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press("Tab");
      reached.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return el?.getAttribute("aria-label") || el?.textContent?.trim() || "";
        }),
      );
    }
    expect(reached).toEqual(
      expect.arrayContaining([
        "Skip to content",
        "Vitrine, home",
        "Gallery",
        "Home",
        "Links",
        "FAQ",
        "Videos",
        "Switch to light theme",
        "DE: Auf Deutsch umschalten",
        "Sign in",
      ]),
    );
    // In reading order: logo, nav, toggles, then sign-in.
    expect(reached.indexOf("Vitrine, home")).toBeLessThan(reached.indexOf("Gallery"));
    expect(reached.indexOf("Videos")).toBeLessThan(reached.indexOf("Switch to light theme"));
    expect(reached.indexOf("DE: Auf Deutsch umschalten")).toBeLessThan(reached.indexOf("Sign in"));

    // Enter on a focused nav link navigates.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "FAQ" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Frequently asked questions" })).toBeVisible();

    // The theme toggle and the language switch work with the keyboard.
    await page.getByRole("button", { name: "Switch to light theme" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.locator("html")).toHaveClass("light");
    await page.getByRole("button", { name: "Auf Deutsch umschalten" }).focus();
    await page.keyboard.press("Space");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1, name: "Häufige Fragen" })).toBeVisible();
  });

  for (const theme of ["light", "dark"] as const) {
    test(`for visitors, "Sign in" is a quiet text link with a visible focus ring (${theme} theme)`, async ({
      page,
    }) => {
      // Registration is invite-only and a personal site's visitors are readers: no filled button calling for them.
      await setPreferences(page, { theme });
      await page.goto("/links");
      const signIn = page.getByRole("banner").getByRole("link", { name: "Sign in" });
      await expect(signIn).toBeVisible();
      const style = () =>
        signIn.evaluate((element) => {
          const computed = getComputedStyle(element);
          return {
            background: computed.backgroundColor,
            outlineStyle: computed.outlineStyle,
            outlineWidth: Number.parseFloat(computed.outlineWidth),
          };
        });
      expect((await style()).background).toBe("rgba(0, 0, 0, 0)");
      // Reached with the keyboard, as the other header links are.
      for (let i = 0; i < 16 && !(await signIn.evaluate((element) => element === document.activeElement)); i++) {
        await page.keyboard.press("Tab");
      }
      await expect(signIn).toBeFocused();
      const focused = await style();
      expect(focused.outlineStyle).not.toBe("none");
      expect(focused.outlineWidth).toBeGreaterThanOrEqual(2);
      expect(focused.background).toBe("rgba(0, 0, 0, 0)");
    });
  }

  test("the auth tabs follow the tab pattern with the arrow keys", async ({ page }) => {
    await page.goto("/auth");
    const signInTab = page.getByRole("tab", { name: "Sign in" });
    await signInTab.focus();
    await page.keyboard.press("ArrowRight");
    const signUpTab = page.getByRole("tab", { name: "Sign up" });
    await expect(signUpTab).toBeFocused();
    await expect(signUpTab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
  });
});
