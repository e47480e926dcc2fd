import { runtimeOf } from "#app/runtime/runtime-context.ts";
import { faviconIcoResponse } from "#app/web/favicon-ico.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/favicon.ico";

/** GET /favicon.ico: the site's favicon under the name browsers and other clients ask for unprompted. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return faviconIcoResponse((await requestSettings(context)).site_favicon_url, request, runtimeOf(context).storage);
}
