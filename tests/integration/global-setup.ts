import { buildIfStale } from "../../scripts/build-if-stale.js";
import { findLeaks, noteSecret, resetLedger, SERVER_LOG_DIR } from "../support/secret-ledger.ts";
import { TEST_AUTH_SECRET } from "../support/server-process.ts";

/**
 * Builds once before any test file runs, so that the servers the integration tests start in
 * parallel never each start a build of their own (`node server.js` builds when the build is stale).
 * After the whole run, fails it if any server logged a secret a test used (see tests/support/secret-ledger.ts).
 */
export default function setup() {
  resetLedger();
  noteSecret(TEST_AUTH_SECRET);
  buildIfStale({ quiet: true });
  return function checkServerLogsForSecrets() {
    const leaks = findLeaks();
    if (leaks.length === 0) return;
    const where = leaks.map((leak) => `  ${leak.file}:${leak.line} holds ${leak.secret}`).join("\n");
    throw new Error(`A server logged a secret a test used (logs in ${SERVER_LOG_DIR}):\n${where}`);
  };
}
