export type BuildOutput = "progress" | "quiet";
export function runBuild(
  command: string,
  args: string[],
  options?: { output?: BuildOutput; env?: NodeJS.ProcessEnv; cwd?: string; say?: (text: string) => void },
): void;
export function buildIfStale(options?: { quiet?: boolean; say?: (text: string) => void }): string;
export function buildIsCurrent(): boolean;
