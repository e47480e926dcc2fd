import path from "node:path";
import { describe, expect, it } from "vitest";
import { findCycles, VALUE_IMPORT as IMPORT, importGraph, repoRoot as root } from "#tests/support/import-graph.ts";

// Modules that import each other (storage ↔ runtime was one) run in an order that depends on who is loaded
// first: a value read at load time can be undefined. Wiring goes one way, from the composition root down.

describe("the server code's imports", () => {
  it("form no cycle", () => {
    const graph = importGraph([path.join(root, "app"), path.join(root, "server")]);
    expect(graph.size).toBeGreaterThan(100);
    const cycles = findCycles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)).join(" → "));
    expect(cycles).toEqual([]);
  });

  it("are read as the walk expects: a cycle through a value import is found, a type-only import is not one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(findCycles(graph)).toEqual([["a", "b", "c", "a"]]);
    const sample = 'import type { A } from "./a.ts";\nimport { b } from "./b.ts";\nexport { c } from "#app/c.ts";';
    expect([...sample.matchAll(IMPORT)].map((match) => match[1])).toEqual(["./b.ts", "#app/c.ts"]);
  });
});
