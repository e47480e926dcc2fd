import { describe, expect, it } from "vitest";
import { fromZonedLocal, isTimeZone, toZonedLocal } from "./schedule-time.ts";

const moment = (local: string, zone: string) => {
  const result = fromZonedLocal(local, zone);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.moment.toISOString();
};

describe("the schedule picker's time zone", () => {
  it("reads a wall-clock time in the admin's zone, winter and summer", () => {
    expect(moment("2026-01-15T09:30", "Europe/Berlin")).toBe("2026-01-15T08:30:00.000Z");
    expect(moment("2026-07-15T09:30", "Europe/Berlin")).toBe("2026-07-15T07:30:00.000Z");
    expect(moment("2026-07-15T09:30", "America/New_York")).toBe("2026-07-15T13:30:00.000Z");
    expect(moment("2026-07-15T09:30", "Asia/Kolkata")).toBe("2026-07-15T04:00:00.000Z");
    expect(moment("2026-07-15T09:30", "UTC")).toBe("2026-07-15T09:30:00.000Z");
  });

  it("refuses a time the clocks skip in spring, and keeps the minutes around it", () => {
    // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST.
    expect(fromZonedLocal("2026-03-29T02:30", "Europe/Berlin")).toEqual({ ok: false, reason: "skipped" });
    expect(moment("2026-03-29T01:59", "Europe/Berlin")).toBe("2026-03-29T00:59:00.000Z");
    expect(moment("2026-03-29T03:00", "Europe/Berlin")).toBe("2026-03-29T01:00:00.000Z");
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT.
    expect(fromZonedLocal("2026-03-08T02:15", "America/New_York")).toEqual({ ok: false, reason: "skipped" });
  });

  it("takes the first of the hour that happens twice in autumn", () => {
    // Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:30 happens at 00:30Z and again at 01:30Z.
    expect(moment("2026-10-25T02:30", "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
    expect(moment("2026-10-25T03:00", "Europe/Berlin")).toBe("2026-10-25T02:00:00.000Z");
  });

  it("shows a moment back in the zone it was chosen in", () => {
    for (const local of ["2026-01-15T09:30", "2026-10-25T02:30", "2026-03-29T03:00", "2026-12-31T23:59"]) {
      const result = fromZonedLocal(local, "Europe/Berlin");
      expect(result.ok && toZonedLocal(result.moment, "Europe/Berlin")).toBe(local);
    }
    expect(toZonedLocal(new Date("2026-10-25T01:30:00Z"), "Europe/Berlin")).toBe("2026-10-25T02:30");
    expect(toZonedLocal(new Date("2026-07-15T23:30:00Z"), "Europe/Berlin")).toBe("2026-07-16T01:30");
  });

  it("refuses what is not a date and time or not a zone", () => {
    for (const bad of [
      "",
      "tomorrow",
      "2026-02-30T10:00",
      "2026-13-01T10:00",
      "2026-01-01T24:00",
      "2026-01-01 10:00",
    ]) {
      expect(fromZonedLocal(bad, "Europe/Berlin")).toEqual({ ok: false, reason: "invalid" });
    }
    expect(fromZonedLocal("2026-01-15T09:30", "Mars/Olympus")).toEqual({ ok: false, reason: "invalid" });
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("")).toBe(false);
    expect(isTimeZone("x".repeat(100))).toBe(false);
  });
});
