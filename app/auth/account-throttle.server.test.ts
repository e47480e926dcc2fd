import { describe, expect, it } from "vitest";
import { databaseKinds, useTestDatabase } from "#tests/support/test-database.ts";
import {
  beginAccountAttempt,
  clearAccountFailures,
  delayAfterFailures,
  FAILURE_MEMORY_MS,
  FREE_FAILURES,
  MAX_DELAY_MS,
  sweepAccountFailures,
} from "./account-throttle.server.ts";

describe("the delay after failed sign-ins", () => {
  it("lets the first failures pass, then doubles from 15 seconds up to 5 minutes", () => {
    expect(FREE_FAILURES).toBe(5);
    expect([1, 2, 3, 4, 5].map(delayAfterFailures)).toEqual([0, 0, 0, 0, 0]);
    expect([6, 7, 8, 9, 10, 11, 12, 50].map((n) => delayAfterFailures(n) / 1000)).toEqual([
      15, 30, 60, 120, 240, 300, 300, 300,
    ]);
  });

  it("allows well under 100 checked passwords an hour for one account (ASVS 2.2.1)", () => {
    // An attacker who tries again the moment each delay ends.
    let at = 0;
    let checked = 0;
    while (at < 60 * 60_000) {
      checked += 1;
      at += delayAfterFailures(checked);
    }
    expect(checked).toBeLessThanOrEqual(25);
  });
});

describe.each(databaseKinds)("failed sign-ins per account (%s)", (kind) => {
  const database = useTestDatabase(kind, "each");
  const start = new Date("2026-01-01T12:00:00Z");
  const at = (ms: number) => new Date(start.getTime() + ms);

  it("makes the account wait after the free failures, refuses without counting meanwhile, and lets it try after", async () => {
    for (let failure = 1; failure <= FREE_FAILURES; failure++) {
      expect(await beginAccountAttempt(database.db, "owner@example.com", at(failure))).toBe(0);
    }
    // The sixth is checked, and the account waits 15 s from it.
    expect(await beginAccountAttempt(database.db, "owner@example.com", at(10_000))).toBe(0);
    expect(await beginAccountAttempt(database.db, "owner@example.com", at(10_001))).toBe(14_999);
    expect(await beginAccountAttempt(database.db, "owner@example.com", at(24_999))).toBe(1);
    // Another account is not affected.
    expect(await beginAccountAttempt(database.db, "other@example.com", at(10_002))).toBe(0);
    // Refused attempts were not counted: the seventh is checked once the wait is over, then 30 s.
    expect(await beginAccountAttempt(database.db, "owner@example.com", at(25_000))).toBe(0);
    expect(await beginAccountAttempt(database.db, "owner@example.com", at(25_000))).toBe(30_000);
  });

  it("never makes the owner wait more than 5 minutes, and a success clears the count", async () => {
    let now = 0;
    for (let attempt = 0; attempt < 40; attempt++) {
      const wait = await beginAccountAttempt(database.db, "owner@example.com", at(now));
      expect(wait).toBeLessThanOrEqual(MAX_DELAY_MS);
      now += wait > 0 ? wait : 1;
    }
    const wait = await beginAccountAttempt(database.db, "owner@example.com", at(now));
    expect(wait).toBe(MAX_DELAY_MS - 1);
    now += wait;
    // The right password after the wait: checked, and then everything is forgotten.
    expect(await beginAccountAttempt(database.db, "owner@example.com", at(now))).toBe(0);
    await clearAccountFailures(database.db, "owner@example.com");
    for (let failure = 0; failure < FREE_FAILURES + 1; failure++) {
      expect(await beginAccountAttempt(database.db, "owner@example.com", at(now + 1))).toBe(0);
    }
  });

  it("forgets failures after an hour without one", async () => {
    for (let failure = 0; failure < 8; failure++) {
      const wait = await beginAccountAttempt(database.db, "owner@example.com", at(failure * MAX_DELAY_MS));
      expect(wait).toBe(0);
    }
    const later = 7 * MAX_DELAY_MS + FAILURE_MEMORY_MS;
    for (let failure = 0; failure < FREE_FAILURES + 1; failure++) {
      expect(await beginAccountAttempt(database.db, "owner@example.com", at(later))).toBe(0);
    }
    expect(await beginAccountAttempt(database.db, "owner@example.com", at(later))).toBe(15_000);
  });

  it("counts attempts sent at once one after the other", async () => {
    const waits = await Promise.all(
      Array.from({ length: 20 }, () => beginAccountAttempt(database.db, "owner@example.com", at(0))),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(FREE_FAILURES + 1);
  });

  it("sweeps the rows of accounts quiet for an hour, not those still waiting", async () => {
    await beginAccountAttempt(database.db, "old@example.com", at(0));
    for (let failure = 0; failure < 20; failure++) await beginAccountAttempt(database.db, "busy@example.com", at(0));
    await beginAccountAttempt(database.db, "new@example.com", at(FAILURE_MEMORY_MS));
    await sweepAccountFailures(database.db, at(FAILURE_MEMORY_MS + 1));
    const rows = await database.db.selectFrom("sign_in_failures").select("account").orderBy("account").execute();
    expect(rows.map((row) => row.account)).toEqual(["new@example.com"]);
  });
});
