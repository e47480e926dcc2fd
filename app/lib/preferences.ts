import { DEFAULT_LANGUAGE, isLanguage, type Language } from "#app/i18n/i18n.ts";

export type Theme = "light" | "dark";
export const DEFAULT_THEME: Theme = "dark";
/** The owner's choice for a visitor who has not chosen (setting `default_theme`): a theme, or the browser's. */
export const THEME_SETTINGS = ["dark", "light", "system"] as const;
export type ThemeSetting = (typeof THEME_SETTINGS)[number];
export const THEME_COOKIE = "theme";
export const LANGUAGE_COOKIE = "lang";
/** The client hint a browser sends with its colour scheme once the site asks for it (Accept-CH). */
export const COLOR_SCHEME_HINT = "Sec-CH-Prefers-Color-Scheme";
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

export function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark";
}

export function isThemeSetting(value: unknown): value is ThemeSetting {
  return isTheme(value) || value === "system";
}

export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
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

/**
 * The site's language the browser prefers (`Accept-Language`, RFC 9110 §12.5.4): the one of English and German
 * with the higher weight, the earlier one on a tie, English when it names neither. `de-AT` counts as German.
 */
export function negotiatedLanguage(acceptLanguage: string | null | undefined): Language {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;
  let best: { lang: Language; q: number } | null = null;
  // A header is short; a hostile one is cut rather than parsed at length.
  for (const entry of acceptLanguage.slice(0, 1000).split(",")) {
    const [tag = "", ...params] = entry.split(";");
    const primary = tag.trim().toLowerCase().split("-")[0];
    if (!isLanguage(primary)) continue;
    let q = 1;
    for (const param of params) {
      if (!/^\s*q\s*=/i.test(param)) continue;
      // A weight that is not one (q=abc, q=2) counts as a refusal rather than as the default 1.
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      q = match ? Number(match[1]) : 0;
    }
    if (q > 0 && q <= 1 && (best === null || q > best.q)) best = { lang: primary, q };
  }
  return best?.lang ?? DEFAULT_LANGUAGE;
}

/**
 * The language of a page from the request's headers: the remembered choice (cookie) wins over the browser's
 * preference. Shared with the page cache's key (server/page-cache.ts), so the two never disagree.
 */
export function languageFromHeaders(
  cookieHeader: string | null | undefined,
  acceptLanguage: string | null | undefined,
) {
  const fromCookie = readCookie(cookieHeader, LANGUAGE_COOKIE);
  return isLanguage(fromCookie) ? fromCookie : negotiatedLanguage(acceptLanguage);
}

/** `?lang=` wins (shared links, crawlers), then the remembered choice, then the browser's, then English. */
export function languageOf(request: Request): { lang: Language; fromQuery: boolean } {
  const fromQuery = new URL(request.url).searchParams.get("lang");
  if (isLanguage(fromQuery)) return { lang: fromQuery, fromQuery: true };
  return {
    lang: languageFromHeaders(request.headers.get("Cookie"), request.headers.get("Accept-Language")),
    fromQuery: false,
  };
}

/**
 * What the request says about the theme, before the site's default is applied: the remembered choice, else the
 * colour scheme the browser reports in its client hint, else nothing. The page cache keys on this.
 */
export function themeSignal(
  cookieHeader: string | null | undefined,
  hint: string | null | undefined,
): { theme: Theme; chosen: boolean } | null {
  const fromCookie = readCookie(cookieHeader, THEME_COOKIE);
  if (isTheme(fromCookie)) return { theme: fromCookie, chosen: true };
  // The hint is a structured-field token: `light` or `dark`, possibly quoted by some clients.
  const reported = hint?.trim().replace(/^"(.*)"$/, "$1");
  return isTheme(reported) ? { theme: reported, chosen: false } : null;
}

export type ThemeChoice = {
  theme: Theme;
  /**
   * True when the site follows the visitor's system and the visitor has not chosen: the page is rendered in the
   * scheme the client hint reports (dark without one), and a small script in its head sets the class the
   * browser's own media query gives before the first paint (THEME_SCRIPT). Without the hint (Firefox, Safari)
   * that script is what makes a light system's page light; with it, it changes nothing, unless the hint and the
   * media query disagree (an emulated scheme in developer tools or a test browser).
   */
  followSystem: boolean;
};

/** The theme a page is rendered in: the visitor's choice, else the site's default (the browser's, for "system"). */
export function themeChoice(request: Request, siteDefault: ThemeSetting = DEFAULT_THEME): ThemeChoice {
  const signal = themeSignal(request.headers.get("Cookie"), request.headers.get(COLOR_SCHEME_HINT));
  if (signal?.chosen) return { theme: signal.theme, followSystem: false };
  if (siteDefault !== "system") return { theme: siteDefault, followSystem: false };
  return { theme: signal?.theme ?? DEFAULT_THEME, followSystem: true };
}

export function themeOf(request: Request, siteDefault: ThemeSetting = DEFAULT_THEME): Theme {
  return themeChoice(request, siteDefault).theme;
}

/**
 * Runs in the head before the first paint when the theme follows the visitor's system: the class the media
 * query gives. Allowed by its hash in the Content-Security-Policy (entry.server.tsx), and by the page cache's
 * hashes of every inline script; its text must stay exactly this.
 */
export const THEME_SCRIPT =
  'var l=matchMedia("(prefers-color-scheme: light)").matches,c=document.documentElement.classList;c.toggle("light",l);c.toggle("dark",!l)';
