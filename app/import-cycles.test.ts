import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Modules that import each other (storage ↔ runtime was one) run in an order that depends on who is loaded
// first: a value read at load time can be undefined. Wiring goes one way, from the composition root down.

const root = path.resolve(import.meta.dirname, "..");

/** Static value imports and re-exports (`import type`/`export type` leave nothing at run time). */
const IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^"]+)"/gm;

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("#app/")) base = path.join(root, "app", specifier.slice(5));
  else if (specifier.startsWith("#server/")) base = path.join(root, "server", specifier.slice(8));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  return [base, `${base}.ts`, `${base}.tsx`].find((file) => fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(sourceFiles)) {
    const text = fs.readFileSync(file, "utf8");
    const targets = [...text.matchAll(IMPORT)].map((match) => resolve(file, match[1] ?? "")).filter((t) => t !== null);
    graph.set(file, targets);
  }
  return graph;
}

/** Every import cycle found by a depth-first walk, each as the files in import order (the first repeated last). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...trail.slice(trail.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

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
