import routes from "#app/routes.ts";

/*
 * Every address the route table serves outside the admin area, read from app/routes.ts (issue 21's leak matrix):
 * a route added later is walked by every test that uses this list, without anyone adding it there. A dynamic
 * segment takes each sample value given, and one that names nothing.
 */

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };

/** Routes not walked, and why: each must hold a reason, so a new route is walked unless one is given. */
const NOT_WALKED: Record<string, string> = {
  admin: "the admin area: refused to anyone but admins (tests/integration/route-admin-guard.test.ts)",
  "auth/sign-out": "an action: signs out",
  "unsubscribe/:token": "a mail's unsubscribe page: shows no content, only a button (subscriptions-http.test.ts)",
};

/** What fills the dynamic segments and queries: posts' slugs and tags, pictures' ids, a word to search for. */
export type WalkSamples = {
  slugs: string[];
  tags: string[];
  pictures: string[];
  query: string;
  shares?: string[];
  /** Albums' slugs (each walked alone, in German, and with each picture opened). */
  albums?: string[];
};

/** An unknown value of each sample (the "missing" answer a hidden item's own address must equal). */
export const UNKNOWN_SAMPLE = {
  slug: "quillnothing-missing",
  tag: "tagnothing",
  picture: "picturenothing",
  share: "sharenothing0000000000000000000000000000000",
  album: "albumnothing",
};

function addressesOf(path: string, samples: WalkSamples): string[] {
  if (path === "*") return ["/no-such-page"];
  if (path === "search") return [`/search?q=${samples.query}`, `/search?q=${samples.query}&lang=de`];
  if (path === "albums/:slug") {
    return [...(samples.albums ?? []), UNKNOWN_SAMPLE.album].flatMap((slug) => [
      `/albums/${slug}`,
      `/albums/${slug}?lang=de`,
      ...[...samples.pictures, UNKNOWN_SAMPLE.picture].map((id) => `/albums/${slug}?image=${id}`),
    ]);
  }
  if (path === "blog/:slug") return [...samples.slugs, UNKNOWN_SAMPLE.slug].map((slug) => `/blog/${slug}`);
  if (path === "blog/tag/:tag") return [...samples.tags, UNKNOWN_SAMPLE.tag].map((tag) => `/blog/tag/${tag}`);
  if (path === "s/:token") return [...(samples.shares ?? []), UNKNOWN_SAMPLE.share].map((token) => `/s/${token}`);
  if (/:\w+/.test(path)) throw new Error(`No sample for ${path} in tests/support/route-walk.ts`);
  const address = path === "" ? "/" : `/${path}`;
  // The gallery's shared picture (its lightbox, share card and structured data).
  const shared = path === "" ? [...samples.pictures, UNKNOWN_SAMPLE.picture].map((id) => `/?image=${id}`) : [];
  return [address, `${address}${address.includes("?") ? "&" : "?"}lang=de`, ...shared];
}

export function walkedAddresses(samples: WalkSamples): string[] {
  const addresses: string[] = [];
  const walk = (entries: RouteEntry[], prefix: string) => {
    for (const entry of entries) {
      const path = entry.index ? prefix.replace(/\/$/, "") : `${prefix}${entry.path ?? ""}`;
      if (NOT_WALKED[path] !== undefined) continue;
      if (entry.children) walk(entry.children, `${path}/`);
      else addresses.push(...addressesOf(path, samples));
    }
  };
  walk(routes as RouteEntry[], "");
  return [...new Set(addresses)];
}

/** Addresses answered as files (no `.data` twin). */
export function isResourceAddress(address: string): boolean {
  return /\.(xml|txt|ico)$/.test(address.split("?")[0] ?? "");
}
