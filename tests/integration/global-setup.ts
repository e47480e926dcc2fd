import { buildIfStale } from "../../scripts/build-if-stale.js";

/**
 * Builds once before any test file runs, so that the servers the integration tests start in
 * parallel never each start a build of their own (`node server.js` builds when the build is stale).
 */
export default function setup() {
  buildIfStale({ quiet: true });
}
