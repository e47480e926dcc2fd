import type { RouterContextProvider } from "react-router";
import { requireAdmin } from "./session.server.ts";

/**
 * The loader of an admin address that only takes POSTs (uploads, the Markdown preview): a GET is answered
 * like any other admin address for who is asking (visitors to sign in, non-admins 403), and for an admin
 * with 405 naming the method it accepts. Without it React Router answers 400 and logs a stack trace.
 */
export function refuseAdminRead(url: URL, context: Readonly<RouterContextProvider>): never {
  requireAdmin(url, context);
  throw new Response("This address only accepts POST requests.", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
  });
}
