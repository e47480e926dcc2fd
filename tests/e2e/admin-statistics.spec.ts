import { expectNoViolations } from "./axe.ts";
import { expect, setPreferences, test, waitForHydration } from "./fixtures.ts";

// Admin → Statistics (issue 46) in both themes: the chart drawn on the server and its table are shown, and axe finds
// nothing on the whole screen. The rows are written for a week of 2019 of the theme's own (the site counts today's
// visits meanwhile, and the other theme's test runs beside this one), and removed afterwards.

const WEEKS = { light: "2019-06", dark: "2019-07" } as const;

for (const theme of ["light", "dark"] as const) {
  test(`the statistics screen with a week of visits, axe finds nothing, ${theme} theme`, async ({
    page,
    database,
    makeUser,
    signInAs,
  }) => {
    const month = WEEKS[theme];
    const days = [1, 2, 3, 4, 5, 6, 7].map((day) => `${month}-0${day}`);
    const row = (day: string, kind: string, key: string, views: number, visitors: number) => ({
      day,
      kind,
      key,
      views,
      visitors,
      member_views: 0,
    });
    await database.db
      .insertInto("stats_daily")
      .values([
        ...days.map((day, index) => row(day, "site", "", 40 + index * 7, 12 + index * 3)),
        row(days[0] as string, "page", "/blog", 30, 10),
        row(days[0] as string, "page", "/albums/summer", 12, 4),
        row(days[1] as string, "referrer", "news.example.org", 9, 6),
        row(days[1] as string, "language", "de", 20, 8),
        row(days[1] as string, "language", "en", 30, 9),
        row(days[2] as string, "notfound", "/old-page", 3, 2),
        row(days[2] as string, "notfound-referrer", "/old-page\nforum.example.net", 3, 2),
        row(days[3] as string, "search-empty", "unicorns", 2, 2),
      ])
      .execute();
    try {
      await setPreferences(page, { theme });
      await signInAs(page, await makeUser({ admin: true }));
      await page.goto(`/admin/statistics?range=custom&from=${days[0]}&to=${days[6]}`);
      await waitForHydration(page);
      await expect(page.locator("html")).toHaveClass(theme);
      await expect(page.getByRole("heading", { level: 1, name: "Statistics" })).toBeVisible();
      await expect(page.getByRole("img", { name: /^Chart of visitors and views per day/ })).toBeVisible();
      const table = page.getByRole("table", { name: /^Visitors and views per day/ });
      await expect(table).toBeVisible();
      await expect(table.getByRole("row")).toHaveCount(8);
      await expect(page.getByRole("table", { name: "Broken links" })).toContainText("forum.example.net");
      await expectNoViolations(page, `/admin/statistics (${theme})`);
    } finally {
      await database.db
        .deleteFrom("stats_daily")
        .where("day", ">=", days[0] as string)
        .where("day", "<=", days[6] as string)
        .execute();
    }
  });
}
