export function buildIfStale(options?: { quiet?: boolean }): string;
