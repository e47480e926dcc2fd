const PROBE_ORIGIN = "http://same-site.invalid";

/**
 * Only same-site paths: `/admin` yes; `//evil.example`, `https://…`, `/\evil` no. Control characters,
 * spaces and backslashes are refused outright, because browsers drop tabs and newlines when they parse
 * a URL (`/\t/evil.example` becomes `//evil.example`), and they would make an invalid Location header.
 */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || hasUnsafeCharacter(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? fallback : path;
}

function hasUnsafeCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f || char === "\\") return true;
  }
  return false;
}
