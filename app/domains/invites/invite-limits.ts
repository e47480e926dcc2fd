/** The most codes made in one go from the admin screen. */
export const MAX_CODES_AT_ONCE = 100;
/**
 * A note says who a code is for; it is not a letter. Room for the longest e-mail address, since a code sent by
 * mail has its address as its note.
 */
export const MAX_NOTE_LENGTH = 254;
/** The most groups one code gives (a form could name more only by hand). */
export const MAX_INVITE_GROUPS = 50;
