import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dateTimeFormat, numberFormat } from "./intl-format.ts";

const APP = path.resolve(import.meta.dirname, "..");

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("+") ? [] : sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("date and number formatters", () => {
  it("are made once per locale and options, and format as Intl does", () => {
    const long = dateTimeFormat("de-DE", { dateStyle: "long", timeZone: "UTC" });
    expect(dateTimeFormat("de-DE", { dateStyle: "long", timeZone: "UTC" })).toBe(long);
    expect(dateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" })).not.toBe(long);
    expect(dateTimeFormat("de-DE", { dateStyle: "medium", timeZone: "UTC" })).not.toBe(long);
    expect(long.format(new Date("2026-03-29T09:30:00Z"))).toBe("29. März 2026");
    const megabytes = numberFormat("de-DE", { maximumFractionDigits: 1 });
    expect(numberFormat("de-DE", { maximumFractionDigits: 1 })).toBe(megabytes);
    expect(megabytes.format(12.345)).toBe("12,3");
    // A name Intl refuses is refused here too, and not kept.
    expect(() => dateTimeFormat("en-US", { timeZone: "Mars/Olympus" })).toThrow(RangeError);
  });

  it("are the only ones the site's code makes: a new one per use keeps native memory no collection frees", () => {
    const offenders = sourcesUnder(APP)
      .filter((file) => !file.endsWith(path.join("lib", "intl-format.ts")))
      .filter((file) =>
        /new Intl\.(DateTimeFormat|NumberFormat)\b|\.toLocale(Date|Time)?String\(/.test(fs.readFileSync(file, "utf8")),
      )
      .map((file) => path.relative(APP, file));
    expect(offenders).toEqual([]);
  });
});
