import { settingRows } from "#app/domains/settings/settings.server.ts";
import { requestSettings } from "#app/web/site-context.server.ts";
import type { Route } from "./+types/api.settings";

/** Public: every site setting as `{ key, value }` rows (spec §7, "Read settings"), from the request's one read. */
export async function loader({ context }: Route.LoaderArgs) {
  return Response.json(settingRows(await requestSettings(context)), {
    headers: { "Cache-Control": "no-cache" },
  });
}
