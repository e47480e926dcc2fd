import { data, type RouterContextProvider } from "react-router";
import { unsubscribeByToken } from "#app/domains/subscriptions/subscriptions.server.ts";
import { verifyUnsubscribeToken } from "#app/domains/subscriptions/unsubscribe-token.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { PRIVATE_CACHE_CONTROL } from "#app/web/site-context.server.ts";

/*
 * `/unsubscribe/<token>`, the link of every mail about new content (issue 21). GET only shows a button, so that a
 * mail scanner that follows links unsubscribes no one; POST (that button, or a mail program's one click, RFC 8058)
 * ends the subscriptions at once, with no session and no cookie. A token that names nothing answers 400 and changes
 * nothing. The address holds the token: never kept, never indexed, never sent on as a Referer (server/app.ts).
 */

export const UNSUBSCRIBE_HEADERS = { "Cache-Control": PRIVATE_CACHE_CONTROL, "X-Robots-Tag": "noindex, nofollow" };

type Args = { params: { token?: string }; context: Readonly<RouterContextProvider> };

export function unsubscribeLoader({ params, context }: Args) {
  const valid = verifyUnsubscribeToken(runtimeOf(context).unsubscribeSecret, params.token ?? "") !== null;
  return data(
    { state: valid ? ("ask" as const) : ("invalid" as const) },
    {
      status: valid ? 200 : 400,
      headers: UNSUBSCRIBE_HEADERS,
    },
  );
}

export async function unsubscribeAction({ params, context }: Args) {
  const runtime = runtimeOf(context);
  const done = await unsubscribeByToken(runtime.database.db, runtime.unsubscribeSecret, params.token ?? "");
  return data(
    { state: done ? ("done" as const) : ("invalid" as const) },
    {
      status: done ? 200 : 400,
      headers: UNSUBSCRIBE_HEADERS,
    },
  );
}
