import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { AppDatabase } from "#app/db/database.server.ts";
import { recurringJobId } from "#app/domains/jobs/job-queue.server.ts";
import { openAsNewAdmin, toast } from "./admin-site-helpers.ts";
import { expectNoViolations } from "./axe.ts";
import { expect, setPreferences, test } from "./fixtures.ts";

// Signing in and running axe on a loaded two-core machine takes its time.
test.describe.configure({ timeout: 120_000 });

/**
 * A one-off job as the worker leaves it after its last try failed. Failed for good, so no worker takes it; other
 * admins' dashboards in parallel tests show it until it is removed (afterwards, below), which they pass too.
 */
async function insertFailedJob(database: AppDatabase, kind: string, error: string): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await database.db
    .insertInto("jobs")
    .values({
      id,
      kind,
      lane: "default",
      payload: "{}",
      dedupe_key: null,
      state: "failed",
      run_at: now,
      attempts: 5,
      max_attempts: 5,
      last_error: error,
      created_at: now,
      updated_at: now,
      finished_at: now,
    })
    .execute();
  return id;
}

/** Presses Tab until `target` has the focus (from the top of the page: the keyboard only). */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>, limit = 150) {
  for (let index = 0; index < limit; index++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error("Tab never reached the button");
}

for (const theme of ["light", "dark"] as const) {
  test(`the dashboard lists background work that failed, in words, and axe finds nothing (${theme} theme)`, async ({
    page,
    makeUser,
    signInAs,
    database,
  }) => {
    const ids = [
      await insertFailedJob(database, "image.finish", `<b>Input</b> buffer holds an unsupported format (${theme})`),
      // A kind this version has no words for is shown by its name.
      await insertFailedJob(database, "report.weekly", `Timed out (${theme})`),
    ];
    try {
      await setPreferences(page, { theme });
      await openAsNewAdmin(page, { makeUser, signInAs }, "/admin");
      await expect(page.locator("html")).toHaveClass(theme);

      const section = page.getByRole("region", { name: "Background work that failed", exact: true });
      const picture = section.getByRole("row").filter({ hasText: `unsupported format (${theme})` });
      await expect(picture.getByRole("rowheader")).toHaveText("Making a picture's sizes");
      // The error is text, never markup.
      await expect(picture.getByRole("cell").nth(2)).toHaveText(
        `<b>Input</b> buffer holds an unsupported format (${theme})`,
      );
      await expect(picture.locator("b")).toHaveCount(0);
      await expect(picture.getByRole("cell").nth(1)).toHaveText("5");
      await expect(picture.locator("time")).toHaveText(/^\d{1,2} \w{3,4} \d{4}, \d{2}:\d{2}:\d{2} UTC$/);
      await expect(
        picture.getByRole("button", { name: /^Try again\s?: Making a picture's sizes, last failed / }),
      ).toBeVisible();
      await expect(
        picture.getByRole("button", { name: /^Dismiss\s?: Making a picture's sizes, last failed / }),
      ).toBeVisible();
      const unknown = section.getByRole("row").filter({ hasText: `Timed out (${theme})` });
      await expect(unknown.getByRole("rowheader")).toHaveText("report.weekly");

      await expectNoViolations(page, `/admin with failed background work (${theme})`);
    } finally {
      await database.db.deleteFrom("jobs").where("id", "in", ids).execute();
    }
  });
}

test("a recurring job that keeps failing is tried again from the keyboard, runs, and leaves the list", async ({
  page,
  makeUser,
  signInAs,
  database,
}) => {
  // The server's own sweep of old change events, as it stands after failing its last five turns in a row; its
  // next turn an hour away, so that only the admin's "Try again" runs it now.
  const id = recurringJobId("sweep.events");
  const error = `The database is locked (${randomUUID().slice(0, 8)})`;
  await expect
    .poll(async () => {
      const result = await database.db
        .updateTable("jobs")
        .set({ attempts: 5, max_attempts: 5, last_error: error, run_at: new Date(Date.now() + 3_600_000) })
        .where("id", "=", id)
        // Not while the server runs it (it may be mid-turn): then its next turn is waited for.
        .where("state", "=", "queued")
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    })
    .toBe(1);
  try {
    await openAsNewAdmin(page, { makeUser, signInAs }, "/admin");
    const section = page.getByRole("region", { name: "Background work that failed", exact: true });
    const row = section.getByRole("row").filter({ hasText: error });
    await expect(row.getByRole("rowheader")).toHaveText("Clearing old change events");

    const retry = row.getByRole("button", { name: /^Try again\s?: Clearing old change events, last failed / });
    await tabTo(page, retry);
    await page.keyboard.press("Enter");

    await expect(toast(page, "“Clearing old change events” is queued again.")).toBeVisible();
    await expect(section.getByRole("row").filter({ hasText: error })).toHaveCount(0);
    // Its row and buttons are gone: the focus is on the section's heading, not lost to the page.
    await expect(page.getByRole("heading", { level: 2, name: "Background work that failed" })).toBeFocused();

    // The server's worker ran it at once: its failures are forgotten and its next turn is set.
    await expect
      .poll(async () => {
        const job = await database.db
          .selectFrom("jobs")
          .select(["state", "attempts", "last_error"])
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        return job;
      })
      .toEqual({ state: "queued", attempts: 0, last_error: null });
    const audit = await database.db
      .selectFrom("audit_log")
      .select(["action", "target", "old_value"])
      .where("old_value", "=", error)
      .execute();
    expect(audit).toEqual([{ action: "jobs.retry", target: "sweep.events", old_value: error }]);
  } finally {
    // Should the test stop half-way, the sweep must not stay failing for the other specs' dashboards.
    await database.db
      .updateTable("jobs")
      .set({ attempts: 0, last_error: null, run_at: new Date() })
      .where("id", "=", id)
      .where("last_error", "=", error)
      .execute();
  }
});
