/*
 * Apart from search-schema.ts on purpose: the header's type-ahead reads this number in the browser, and that module
 * brings zod with it (lean-public-pages.spec.ts holds the type-ahead's chunk free of it).
 */

/**
 * Hits the header's type-ahead shows, and asks for (`/search?q=…&suggest=1`): the first of page 1, with the same
 * count. Reading and presenting only these costs 0.84–0.88 of presenting the page's 20 (decision 015).
 */
export const SEARCH_SUGGESTIONS = 6;
