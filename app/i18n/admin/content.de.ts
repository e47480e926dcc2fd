import type { adminContentEn } from "./content.en.ts";

export const adminContentDe = {} satisfies Record<keyof typeof adminContentEn, string>;
