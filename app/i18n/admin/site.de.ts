import type { adminSiteEn } from "./site.en.ts";

export const adminSiteDe = {} satisfies Record<keyof typeof adminSiteEn, string>;
