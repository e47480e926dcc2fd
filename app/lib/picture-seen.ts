/**
 * Tells the site's statistics that a picture was opened in the lightbox (issue 46). Opening one changes only the
 * address in the browser (its data is the page's, not asked for again), so the server would never hear of it: one
 * small request to this site after the fact, answered 204, counted by the server's rules (no bots, no admins, not
 * with Sec-GPC). Nothing is stored in the browser and nothing goes anywhere else; a failure is of no consequence.
 */
export function notePictureSeen(pictureId: string, pathname: string): void {
  const query = new URLSearchParams({ picture: pictureId, page: pathname });
  fetch(`/api/seen?${query}`, { keepalive: true, credentials: "same-origin", cache: "no-store" }).catch(() => {});
}
