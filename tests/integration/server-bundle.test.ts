import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The production server bundle, built by the global setup (tests/integration/global-setup.ts) when stale.
const SERVER_BUILD = path.resolve(import.meta.dirname, "../../build/server");

function bundleFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return bundleFiles(full);
    return entry.name.endsWith(".js") ? [full] : [];
  });
}

describe("the server bundle", () => {
  it("loads the AWS SDK only in the S3 driver's own chunk, imported when STORAGE_URL names a bucket", () => {
    const files = bundleFiles(SERVER_BUILD).map((file) => ({
      name: path.relative(SERVER_BUILD, file),
      text: fs.readFileSync(file, "utf8"),
    }));
    const usingSdk = files.filter((file) => /["']@(aws-sdk|smithy)\//.test(file.text)).map((file) => file.name);
    expect(usingSdk).toEqual([expect.stringMatching(/^assets\/s3-storage\.server-[\w-]+\.js$/)]);
    // A static import of that chunk would load the SDK (about 12 MB of resident memory) into every process,
    // the default one on the local disk too; a dynamic `import()` loads it only for a bucket.
    const staticImporters = files
      .filter((file) => /(^|\n)\s*import\s[^;]*?from\s*["'][^"']*s3-storage\.server-/.test(file.text))
      .map((file) => file.name);
    expect(staticImporters).toEqual([]);
    expect(files.some((file) => /import\(\s*["'][^"']*s3-storage\.server-/.test(file.text))).toBe(true);
  });

  it("loads sharp, nodemailer and mailparser only when a picture or a mail is first handled, never at the start", () => {
    const files = bundleFiles(SERVER_BUILD).map((file) => fs.readFileSync(file, "utf8"));
    // About 28 MB resident together (measured beside the packages every process loads), which a process that
    // serves pages and handles no picture or mail does not need (issue 23's idle memory).
    for (const name of ["sharp", "nodemailer", "mailparser"]) {
      const statically = new RegExp(`(^|\\n)\\s*import\\s[^;]*?from\\s*["']${name}["']`);
      expect(
        files.filter((text) => statically.test(text)),
        name,
      ).toEqual([]);
      expect(
        files.some((text) => new RegExp(`import\\(\\s*["']${name}["']\\s*\\)`).test(text)),
        name,
      ).toBe(true);
    }
  });

  it("holds the icons the pages use, not lucide-react's package of every icon", () => {
    const files = bundleFiles(SERVER_BUILD).map((file) => fs.readFileSync(file, "utf8"));
    // As a package, Node would load its CommonJS file of all icons (1.3 MB of source, kept twice in the heap, and an
    // object per icon): an empty site's idle RSS was 138 MB with it, 119 MB bundled (one run each).
    expect(files.filter((text) => /["']lucide-react["']/.test(text))).toEqual([]);
    // Each icon is one call (the package makes 2,092; the pages use under a hundred).
    const icons = files.reduce((sum, text) => sum + (text.match(/createLucideIcon\(/g) ?? []).length, 0);
    expect(icons).toBeGreaterThan(10);
    expect(icons).toBeLessThan(200);
  });
});
