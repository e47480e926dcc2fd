import { DEFAULT_LANGUAGE, isLanguage, type Language } from "#app/i18n/i18n.ts";

export type Theme = "light" | "dark";
export const DEFAULT_THEME: Theme = "dark";
export const THEME_COOKIE = "theme";
export const LANGUAGE_COOKIE = "lang";
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

export function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark";
}

export function readCookie(cookieHeader: string | null, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const [rawName, ...rest] = part.trim().split("=");
    if (rawName === name) {
      try {
        return decodeURIComponent(rest.join("="));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function preferenceCookie(name: string, value: string, secure = false): string {
  return `${name}=${value}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** `?lang=` wins (shared links, crawlers), then the remembered choice, then English. */
export function languageOf(request: Request): { lang: Language; fromQuery: boolean } {
  const fromQuery = new URL(request.url).searchParams.get("lang");
  if (isLanguage(fromQuery)) return { lang: fromQuery, fromQuery: true };
  const fromCookie = readCookie(request.headers.get("Cookie"), LANGUAGE_COOKIE);
  return { lang: isLanguage(fromCookie) ? fromCookie : DEFAULT_LANGUAGE, fromQuery: false };
}

export function themeOf(request: Request): Theme {
  const fromCookie = readCookie(request.headers.get("Cookie"), THEME_COOKIE);
  return isTheme(fromCookie) ? fromCookie : DEFAULT_THEME;
}
