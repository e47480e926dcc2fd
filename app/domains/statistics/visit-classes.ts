import Bowser from "bowser";
import { isbot } from "isbot";
import { LRUCache } from "lru-cache";

/*
 * What a counted view says about its visitor, reduced to classes before anything is kept (issue 46): a device
 * class, a language, the referring site's host, a campaign name. Never the address or the user agent themselves.
 */

export type DeviceClass = "phone" | "tablet" | "desktop";
export type LanguageClass = "en" | "de" | "other";

/**
 * A user agent's classes, kept for the agents seen lately: parsing one costs about 12 µs (Bowser's device class
 * most of it, the bot list the rest), several times what counting a kept page may cost, while a site's visitors
 * send a few hundred distinct agents a day.
 */
const agentClasses = new LRUCache<string, { bot: boolean; device: DeviceClass }>({ max: 2000 });

function classesOf(userAgent: string) {
  const known = agentClasses.get(userAgent);
  if (known) return known;
  const type = userAgent.trim() === "" ? "" : Bowser.getParser(userAgent.slice(0, 1000)).getPlatformType(true);
  const classes = {
    // An empty user agent is a script, not a person's browser.
    bot: userAgent.trim() === "" || isbot(userAgent),
    device: (type === "mobile" ? "phone" : type === "tablet" ? "tablet" : "desktop") as DeviceClass,
  };
  if (userAgent.length <= 1000) agentClasses.set(userAgent, classes);
  return classes;
}

export function isBot(userAgent: string): boolean {
  return classesOf(userAgent).bot;
}

export function deviceClassOf(userAgent: string): DeviceClass {
  return classesOf(userAgent).device;
}

/** The visitor's first preferred language (`Accept-Language`), as English, German or another. */
export function languageClassOf(acceptLanguage: string | undefined): LanguageClass {
  const first = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^q=([\d.]+)$/.exec(param.trim())?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.tag !== "" && entry.tag !== "*" && entry.q > 0)
    .sort((a, b) => b.q - a.q)[0]?.tag;
  if (!first) return "other";
  const primary = first.split("-")[0];
  return primary === "en" || primary === "de" ? primary : "other";
}

/** The host of a referring page on another site, lower-case without `www.`; null for none, our own or a bad one. */
export function referrerHostOf(referer: string | undefined, ownHosts: readonly string[]): string | null {
  if (!referer) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase();
  if (ownHosts.some((own) => own.toLowerCase() === host)) return null;
  return host.replace(/^www\./, "").slice(0, 253) || null;
}

/** A campaign's name from `utm_source`, trimmed and bounded; null when there is none. */
export function utmSourceOf(value: string | null): string | null {
  const source = value?.trim().toLowerCase().slice(0, 100);
  return source ? source : null;
}

/**
 * The page an address names, as the statistics count it: the path without its query (the language and paging are
 * the same page), React Router's `.data` suffix removed (a client-side navigation's data is the page's view), and a
 * share link's secret token never kept.
 */
export function pageKeyOf(pathname: string): string {
  let path = pathname;
  if (path.endsWith("/_.data")) path = path.slice(0, -"_.data".length);
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  if (path.startsWith("/s/")) return "/s/…";
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return (path || "/").slice(0, 500);
}

/** Where no visitor's view is: the admin and account areas, sign-in, files, feeds, health checks and the API. */
export function isCountedPage(pathname: string): boolean {
  if (/^\/(admin|account|auth|api|media|assets|healthz|readyz|unsubscribe)(\/|\.data$|$)/.test(pathname)) return false;
  // A file's address (a feed, the sitemap, robots.txt, an icon); a page's data is a page.
  return !/\.[a-z0-9]+$/i.test(pathname) || pathname.endsWith(".data");
}
