import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, run } from "#tests/support/server-process.ts";

/** A PNG's width and height, from its header chunk (IHDR), after checking the file is a PNG at all. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), file).toBe(true);
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("npm run screenshots", () => {
  it("writes the pages it is asked for at 1280 and 390 px, in both themes, and says where", async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-shots-test-"));
    try {
      const result = await run(
        "npm",
        ["run", "screenshots", "--", "--only", "/home", "--out", out],
        cleanEnv({}),
        // Seeding six sample pictures and starting the server take most of it on a loaded two-core machine.
        290_000,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("4 screenshots in");
      expect(result.stdout).toContain(out);
      const files = fs.readdirSync(out).sort();
      expect(files).toEqual(
        ["1280-dark", "1280-light", "390-dark", "390-light"].map((variant) => `public-home-${variant}.png`),
      );
      for (const file of files) {
        const { width, height } = pngSize(path.join(out, file));
        expect(width, file).toBe(file.includes("-1280-") ? 1280 : 390);
        // A full page, not just the first screen: the home page with its sample highlights is longer than the window.
        expect(height, file).toBeGreaterThan(900);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);
});
