export function buildIfStale(options?: { quiet?: boolean }): string;
export function buildIsCurrent(): boolean;
