import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { buildIfStale, runBuild } from "./build-if-stale.js";

/** A stand-in for `react-router build`: a listing of 60 lines, a warning on stderr, then the given exit code. */
function fakeBuild(exitCode: number): [string, string[]] {
  const script = `
    for (let i = 1; i <= 60; i++) console.log("build/client/assets/chunk-" + i + ".js  12.3 kB");
    console.error("(!) Some chunks are larger than 500 kB");
    if (${exitCode}) console.error("Error: Could not resolve './missing.ts'");
    process.exit(${exitCode});
  `;
  return [process.execPath, ["-e", script]];
}

let stdout: MockInstance<typeof process.stdout.write>;
let stderr: MockInstance<typeof process.stderr.write>;
const written = (spy: MockInstance<typeof process.stdout.write>) =>
  spy.mock.calls.map(([chunk]) => String(chunk)).join("");

beforeEach(() => {
  stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

describe("the build as npm start runs it", () => {
  it("shows one line with the seconds it took, and none of the build's listing", () => {
    const said: string[] = [];
    const [command, args] = fakeBuild(0);
    runBuild(command, args, { say: (text) => said.push(text) });

    expect(said).toEqual([expect.stringMatching(/^Built in \d+ s\.\n$/)]);
    expect(written(stdout)).toBe("");
    expect(written(stderr)).toBe("");
  });

  it("shows the whole output when the build fails, so that the cause is visible", () => {
    const said: string[] = [];
    const [command, args] = fakeBuild(2);

    expect(() => runBuild(command, args, { say: (text) => said.push(text) })).toThrow(
      "The build failed (exit code 2); its output is above.",
    );
    expect(said).toEqual([]);
    const shown = written(stderr);
    expect(shown).toContain("chunk-1.js");
    expect(shown).toContain("chunk-60.js");
    expect(shown).toContain("Could not resolve './missing.ts'");
    expect(written(stdout)).toBe("");
  });

  it("says nothing of its own when quiet (the tests' global setup), but still shows a failure", () => {
    const said: string[] = [];
    const [command, args] = fakeBuild(0);
    runBuild(command, args, { output: "quiet", say: (text) => said.push(text) });
    expect(said).toEqual([]);
    expect(written(stderr)).toBe("");

    const [failing, failingArgs] = fakeBuild(1);
    expect(() => runBuild(failing, failingArgs, { output: "quiet", say: (text) => said.push(text) })).toThrow();
    expect(written(stderr)).toContain("Could not resolve");
  });

  it("says nothing at all when the build is current", () => {
    const said: string[] = [];
    // The global setup has just built (tests/integration/global-setup.ts).
    expect(buildIfStale({ say: (text) => said.push(text) })).toMatch(/build\/server\/index\.js$/);
    expect(said).toEqual([]);
  });
});
