import fs from "node:fs";
import path from "node:path";

/** The repository's root, where `app/`, `server/`, `scripts/` and `tests/` sit. */
export const repoRoot = path.resolve(import.meta.dirname, "../..");

/** Static value imports and re-exports (`import type`/`export type` leave nothing at run time). */
export const VALUE_IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^"]+)"/gm;

/**
 * Every import a module states, types included, and `import("…")` expressions: a layer depends on what it names,
 * whether or not the name is left at run time.
 */
export const ANY_IMPORT =
  /^(?:import|export)\s[^;]*?\bfrom\s+"([^"]+)"|^import\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm;

/** The file a specifier names (`#app/…`, `#server/…` or relative), or null for a package. */
export function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("#app/")) base = path.join(repoRoot, "app", specifier.slice(5));
  else if (specifier.startsWith("#server/")) base = path.join(repoRoot, "server", specifier.slice(8));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  return [base, `${base}.ts`, `${base}.tsx`].find((file) => fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

/** The TypeScript files under `dir`, test files left out. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The files of this repository a module's text imports, found with `pattern` (one of the two above). */
export function importsIn(file: string, text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)]
    .map((match) => resolveImport(file, match.slice(1).find((group) => group !== undefined) ?? ""))
    .filter((target) => target !== null);
}

/** Each source file under `dirs` with the files it imports. */
export function importGraph(dirs: string[], pattern: RegExp = VALUE_IMPORT): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap(sourceFiles))
    graph.set(file, importsIn(file, fs.readFileSync(file, "utf8"), pattern));
  return graph;
}

/** Every import cycle found by a depth-first walk, each as the nodes in import order (the first repeated last). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    trail.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") cycles.push([...trail.slice(trail.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}
