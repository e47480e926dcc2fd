import { describe, expect, it } from "vitest";
import { moduleOf, summariseProfile } from "./cpu-profile.ts";
import type { CpuProfile } from "./inspector.ts";

const frame = (functionName: string, url = "", lineNumber = 0) => ({ functionName, url, lineNumber });

describe("summariseProfile", () => {
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame("(root)") },
      { id: 2, callFrame: frame("(idle)") },
      { id: 3, callFrame: frame("renderElement", "file:///srv/node_modules/react-dom/cjs/server.js", 9) },
      { id: 4, callFrame: frame("renderElement", "file:///srv/node_modules/react-dom/cjs/server.js", 9) },
      { id: 5, callFrame: frame("", "file:///srv/build/server/index.js", 41) },
      { id: 6, callFrame: frame("(garbage collector)") },
      { id: 7, callFrame: frame("stringify", "file:///srv/node_modules/a/node_modules/@scope/b/x.js", 2) },
    ],
    // Idle samples are most of them: the shares are of the busy ones.
    samples: [2, 2, 2, 2, 2, 2, 3, 4, 3, 5, 6, 7, 3, 5],
  };

  it("counts a function's self time over every node it has, as shares of the busy samples", () => {
    const { functions, modules } = summariseProfile(profile, 3);
    expect(functions).toEqual([
      { name: "renderElement react-dom:10", share: 4 / 8 },
      { name: "(anonymous) build/server/index.js:42", share: 2 / 8 },
      { name: "(garbage collector)", share: 1 / 8 },
    ]);
    expect(modules.slice(0, 2)).toEqual([
      { name: "react-dom", share: 4 / 8 },
      { name: "build/server/index.js", share: 2 / 8 },
    ]);
  });

  it("names the innermost package, Node's own modules and V8's pseudo-frames", () => {
    expect(moduleOf("file:///srv/node_modules/a/node_modules/@scope/b/x.js", "f")).toBe("@scope/b");
    expect(moduleOf("node:internal/streams/writable", "write")).toBe("node:internal/streams");
    expect(moduleOf("", "(program)")).toBe("(program)");
    expect(moduleOf("", "compile")).toBe("(native)");
  });

  it("falls back to the nodes' hit counts when the profile has no samples", () => {
    const { functions } = summariseProfile({
      nodes: [
        { id: 1, callFrame: frame("a", "file:///x/build/server/index.js", 0), hitCount: 3 },
        { id: 2, callFrame: frame("(idle)"), hitCount: 100 },
        { id: 3, callFrame: frame("b", "file:///x/build/server/index.js", 5), hitCount: 1 },
      ],
    });
    expect(functions).toEqual([
      { name: "a build/server/index.js:1", share: 0.75 },
      { name: "b build/server/index.js:6", share: 0.25 },
    ]);
  });
});
