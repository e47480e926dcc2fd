import { createContext } from "react-router";

/** `sessionId` is the row of the session this request came with (never its token): "this device" on /account/sessions. */
export type SessionUser = {
  id: string;
  email: string;
  isAdmin: boolean;
  sessionId: string;
  /** The member groups the account belongs to (issue 21): what restricted content it may see. */
  groupIds: readonly string[];
};

/** The signed-in user, resolved once per request by the root middleware. */
export const sessionUserContext = createContext<SessionUser | null>(null);

/** The client's address as the HTTP server saw it, for rate limiting. */
export const clientAddressContext = createContext<string>("unknown");

/** The request's id (also its `X-Request-Id` answer header and log line), for the lines logged while answering it. */
export const requestIdContext = createContext<string>("");

/**
 * Set by the server entry's error handler when a loader or action failed because the database could not be
 * reached; server/app.ts then answers 503 with the "back in a moment" page instead of the error page.
 */
export const databaseUnreachableContext = createContext<boolean>(false);

/** What a page's loader tells the statistics about a counted view (issue 46): a search's words and its outcome. */
export type VisitNotes = { search?: { query: string; found: boolean } };

/** Set by the server for a view it counts (server/visit-count.ts); null for every other request. */
export const visitNotesContext = createContext<VisitNotes | null>(null);
