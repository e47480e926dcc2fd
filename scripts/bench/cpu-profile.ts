import type { CpuProfile } from "./inspector.ts";

/** One line of a profile's summary: a function (or a module), its self time's share of the busy samples. */
export type SelfTime = { name: string; share: number };

/**
 * Where a frame's code comes from, as short as tells it apart: a package (`react-dom`, `@better-auth/core`), a file
 * of the server's build, Node's own (`node:internal/...`), or V8's pseudo-frames ("(garbage collector)").
 */
export function moduleOf(url: string, functionName: string): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  const packageMatch = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
  if (packageMatch) return (packageMatch.at(-1) ?? "").replace("node_modules/", "");
  if (url.startsWith("node:")) return url.split("/").slice(0, 2).join("/");
  const build = url.match(/build\/server\/(.+)$/);
  if (build) return `build/server/${build[1]}`;
  return url
    .replace(/^file:\/\//, "")
    .split("/")
    .slice(-2)
    .join("/");
}

function frameName(node: CpuProfile["nodes"][number]): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (url === "") return functionName || "(anonymous)";
  return `${functionName || "(anonymous)"} ${moduleOf(url, functionName)}:${lineNumber + 1}`;
}

/**
 * The top `count` functions and modules by self time: samples that were in that frame itself (not its callees),
 * as a share of the samples in which the process was busy (the idle ones, waiting for the next request, left out).
 */
export function summariseProfile(profile: CpuProfile, count = 10): { functions: SelfTime[]; modules: SelfTime[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map<number, number>();
  if (profile.samples && profile.samples.length > 0) {
    for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  } else {
    for (const node of profile.nodes) hits.set(node.id, node.hitCount ?? 0);
  }
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let busy = 0;
  for (const [id, hitCount] of hits) {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === "(idle)") continue;
    busy += hitCount;
    const name = frameName(node);
    functions.set(name, (functions.get(name) ?? 0) + hitCount);
    const module = moduleOf(node.callFrame.url, node.callFrame.functionName);
    modules.set(module, (modules.get(module) ?? 0) + hitCount);
  }
  const top = (totals: Map<string, number>) =>
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, hitCount]) => ({ name, share: busy === 0 ? 0 : hitCount / busy }));
  return { functions: top(functions), modules: top(modules) };
}
