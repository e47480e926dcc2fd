/**
 * Tells the site's statistics that a picture was opened in the lightbox (issue 46). Opening one changes only the
 * address in the browser (its data is the page's, not asked for again), so the server would never hear of it: one
 * small request to this site after the fact, answered 204, counted by the server's rules (no bots, no admins, not
 * with Sec-GPC). Nothing is stored in the browser and nothing goes anywhere else; a failure is of no consequence.
 */
export function notePictureSeen(pictureId: string, pathname: string): void {
  // Same-origin credentials (the default): a signed-in admin's opening is not counted, a member's counts as theirs.
  fetch(`/api/seen?picture=${pictureId}&page=${encodeURIComponent(pathname)}`, { keepalive: true }).catch(() => {});
}
