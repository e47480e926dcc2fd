import { describe, expect, it } from "vitest";
import { isPastAbsoluteLifetime, SESSION_ABSOLUTE_LIFETIME_MS } from "./session.server.ts";

describe("a session's absolute lifetime", () => {
  it("ends exactly 30 days after the sign-in, whether the date comes as text (SQLite) or a Date (PostgreSQL)", () => {
    expect(SESSION_ABSOLUTE_LIFETIME_MS).toBe(30 * 24 * 60 * 60 * 1000);
    const signedIn = new Date("2026-01-01T00:00:00Z");
    const at = (ms: number) => new Date(signedIn.getTime() + ms);
    expect(isPastAbsoluteLifetime(signedIn, at(SESSION_ABSOLUTE_LIFETIME_MS - 1))).toBe(false);
    expect(isPastAbsoluteLifetime(signedIn.toISOString(), at(SESSION_ABSOLUTE_LIFETIME_MS - 1))).toBe(false);
    expect(isPastAbsoluteLifetime(signedIn, at(SESSION_ABSOLUTE_LIFETIME_MS))).toBe(true);
    expect(isPastAbsoluteLifetime(signedIn.toISOString(), at(SESSION_ABSOLUTE_LIFETIME_MS))).toBe(true);
  });
});
