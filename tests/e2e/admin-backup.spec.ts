import fs from "node:fs";
import { expect, test } from "./fixtures.ts";

test("an admin downloads a fresh backup from the dashboard and stays on it", async ({ page, makeUser, signInAs }) => {
  await signInAs(page, await makeUser({ admin: true }));
  await page.goto("/admin");
  const section = page.getByRole("region", { name: "Backups" });
  await expect(section).toBeVisible();
  await expect(section.getByTestId("last-backup")).toHaveText(
    /^(No backup has been made yet\.|Last backup: .+ UTC, [\d.]+ MB\.)$/,
  );

  const download = page.waitForEvent("download");
  await section.getByRole("button", { name: "Download a fresh backup" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^vitrine-backup-\d{8}T\d{6}Z\.tar\.gz$/);
  const bytes = fs.readFileSync(await file.path());
  // A gzip stream (the archive itself is checked in tests/integration/backup-http.test.ts).
  expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  await expect(page).toHaveURL("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});
