import type { IncomingMessage } from "node:http";
import { maySharedLinksReadFolder } from "#app/domains/albums/album-shares.server.ts";
import { mayReadMemberFolder } from "#app/domains/gallery/gallery-access.server.ts";
import { mayReadPostFolder, maySharedPostLinksReadFolder } from "#app/domains/posts/post-image-places.server.ts";
import { sharesOfFileCookies } from "#app/domains/shares/share-links.server.ts";
import { mayReadVideoFolder } from "#app/domains/videos/video-access.server.ts";
import type { Runtime } from "#app/runtime/runtime-context.ts";
import type { MemberFolderCheck } from "./serve-media.server.ts";
import { readerOfCookie } from "./session.server.ts";

/** The cookies of a request, by name (the share links' files cookies are looked for among them). */
function cookiesOf(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return cookies;
}

/**
 * The check of `/media/members/…` (issue 21): the request's session read (never extended or recorded: a file is
 * no visit), then the one visibility rule asked whether its reader may see a picture, a video or a post that shows
 * that folder; failing that, whether an open share link of an album or a post showing it was opened in this browser
 * (its files cookie). Runs before
 * React Router, on the plain request: its cookie is all it needs.
 */
export function memberFolderCheck(runtimeOf: () => Runtime): MemberFolderCheck {
  return async (req: IncomingMessage, folder: string) => {
    const runtime = runtimeOf();
    const db = runtime.database.db;
    const reader = await readerOfCookie(req.headers.cookie, runtime);
    // A folder is a picture's (in the gallery or a post's own), or a video's (its file and its poster's sizes):
    // each kind's own rule is asked.
    if ((await mayReadMemberFolder(db, reader, folder)) || (await mayReadVideoFolder(db, reader, folder))) return true;
    if (await mayReadPostFolder(db, reader, folder)) return true;
    const shares = sharesOfFileCookies(runtime.shareSecret, cookiesOf(req.headers.cookie));
    if (shares.length === 0) return false;
    return (
      (await maySharedLinksReadFolder(db, shares, folder)) || (await maySharedPostLinksReadFolder(db, shares, folder))
    );
  };
}
