import type { Route } from "./+types/admin.statistics.csv";
import { statisticsCsvResponse } from "./admin.statistics.server.ts";

/**
 * GET /admin/statistics.csv?range=…|from=…&to=…: the statistics screen's range as one line per day, kind and key
 * (a resource route: a file, no page). Admins only: the layout's middleware, and `requireAdmin` again inside.
 */
export function loader({ url, context }: Route.LoaderArgs) {
  return statisticsCsvResponse({ url, context });
}
