import { redirect } from "react-router";
import { getLogger } from "#app/lib/logger.server.ts";
import { runtimeOf } from "#app/runtime/runtime-context.ts";
import type { Route } from "./+types/auth.sign-out";

/** Ends the session on the server (the row is deleted) and clears the cookie. */
export async function action({ request, context }: Route.ActionArgs) {
  const headers = new Headers();
  try {
    const response = await runtimeOf(context).auth.api.signOut({ headers: request.headers, asResponse: true });
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  } catch (error) {
    getLogger().error({ err: error }, "Sign-out failed");
  }
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
