/**
 * How long a shared cache (ours, see server/page-cache.ts, or a CDN in front) may keep an anonymous page: fresh for
 * `sharedMaxAge` seconds, then served stale for up to `staleWhileRevalidate` more while it asks again. Client-safe:
 * the admin's audience control tells the owner the same window (SHARED_CACHE_WINDOW_SECONDS).
 */
export const SHARED_PAGE_CACHE = { sharedMaxAge: 10, staleWhileRevalidate: 60 } as const;

/**
 * What a shared cache may do with an anonymous page: keep it briefly and revalidate by ETag. Browsers revalidate
 * every time (max-age=0), so a change shows at once.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = `public, max-age=0, must-revalidate, s-maxage=${SHARED_PAGE_CACHE.sharedMaxAge}, stale-while-revalidate=${SHARED_PAGE_CACHE.staleWhileRevalidate}`;

/**
 * The longest a CDN may go on showing a page as it was before a change (a just-restricted picture's tile in the
 * gallery): fresh, then stale while it revalidates.
 */
export const SHARED_CACHE_WINDOW_SECONDS = SHARED_PAGE_CACHE.sharedMaxAge + SHARED_PAGE_CACHE.staleWhileRevalidate;
