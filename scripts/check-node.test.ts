import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, ROOT, run } from "#tests/support/server-process.ts";

const CHECK = path.join(ROOT, "scripts/check-node.cjs");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

/** Debian's own Node (20 on bookworm/trixie) is the old Node at hand; the server's Node is the test runner's. */
const OLD_NODE = "/usr/bin/node";
function oldNodeVersion(): string | null {
  if (!fs.existsSync(OLD_NODE)) return null;
  const version = execFileSync(OLD_NODE, ["--version"], { encoding: "utf8" }).trim();
  return Number(version.slice(1).split(".")[0]) < 24 ? version : null;
}
const oldVersion = oldNodeVersion();
const skipReason = fs.existsSync(OLD_NODE)
  ? `${OLD_NODE} is Node 24 or newer, so there is no old Node to try`
  : `there is no ${OLD_NODE} to try an old Node with`;

describe("the Node.js version check", () => {
  it("runs as npm install's preinstall and asks for the Node version package.json's engines field names", () => {
    expect(pkg.engines.node).toBe(">=24");
    expect(fs.readFileSync(CHECK, "utf8")).toContain("var REQUIRED_MAJOR = 24;");
    // npm runs a project's own preinstall after the dependencies' install scripts, but under .npmrc's
    // loglevel=silent it is the only thing that shows the owner a reason (npm's EBADENGINE message is silenced).
    expect(pkg.scripts.preinstall).toBe("node scripts/check-node.cjs");
  });

  it("lets the current Node through, silently", async () => {
    const result = await run(process.execPath, [CHECK], cleanEnv({}), 10_000);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  describe.skipIf(!oldVersion)(`on an old Node (${oldVersion ?? `skipped: ${skipReason}`})`, () => {
    const expected = `Vitrine needs Node.js 24 or newer; this is ${oldVersion}.\n`;

    it("the check stops with one line and a non-zero exit", async () => {
      const result = await run(OLD_NODE, [CHECK], cleanEnv({}), 10_000);
      expect(result.stderr).toBe(expected);
      expect(result.stdout).toBe("");
      expect(result.code).not.toBe(0);
    });

    it.each([
      ["npm start's command", ["--max-semi-space-size=16", "--min-semi-space-size=16", "--expose-gc", "server.js"]],
      ["npm run dev's command", ["--conditions=development", "server.js", "--dev"]],
    ])("%s stops at once with that line, before building or loading the SQLite driver", async (_name, args) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-old-node-"));
      try {
        const started = performance.now();
        const result = await run(OLD_NODE, args, cleanEnv({ DATA_DIR: dataDir, PORT: "0" }), 20_000);
        // Today's failure was a full build, then "Segmentation fault" (signal SIGSEGV, nothing on stderr).
        expect(result.signal).toBeNull();
        expect(result.stderr).toBe(expected);
        expect(result.stdout).toBe("");
        expect(result.code).toBe(1);
        expect(performance.now() - started).toBeLessThan(5000);
        expect(fs.readdirSync(dataDir)).toEqual([]);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
});
