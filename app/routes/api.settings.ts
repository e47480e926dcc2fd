import { listSettingRows } from "#app/domains/settings/settings.server.ts";
import { getDb } from "#app/lib/runtime.server.ts";

/** Public: every site setting as `{ key, value }` rows (spec §7, "Read settings"). */
export async function loader() {
  return Response.json(await listSettingRows(getDb()), {
    headers: { "Cache-Control": "no-cache" },
  });
}
