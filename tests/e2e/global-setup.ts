import { LOG_WRITE_WAIT_MS } from "#app/lib/logger.server.ts";
import { findLeaks, noteSecret, resetSecrets } from "#tests/support/secret-ledger.ts";
import { E2E_SECRET, E2E_SERVERS } from "./e2e-env.ts";
import { resetExpectedServerErrors, unexpectedServerErrors } from "./server-errors.ts";

/**
 * Runs once the servers are up (Playwright starts them first, and stops them after the teardown below). After
 * the whole run it fails the run if a server logged a secret a test used (as the Vitest servers are checked,
 * tests/support/secret-ledger.ts) or an error line no test declared (tests/e2e/server-errors.ts).
 */
export default function setup() {
  resetSecrets();
  resetExpectedServerErrors();
  noteSecret(E2E_SECRET);
  return async function checkServerLogs() {
    // The servers are still running: let what they logged last reach the files.
    await new Promise((resolve) => setTimeout(resolve, LOG_WRITE_WAIT_MS + 300));
    const logFiles = E2E_SERVERS.map((server) => server.logFile);
    const leaks = findLeaks(logFiles).map((leak) => `  ${leak.file}:${leak.line} holds ${leak.secret}`);
    const errors = unexpectedServerErrors(logFiles).map((line) => `  ${line}`);
    const problems = [
      ...(leaks.length > 0 ? ["A browser tests' server logged a secret a test used:", ...leaks] : []),
      ...(errors.length > 0
        ? ["A browser tests' server logged an error no test expected (see expectedServerErrors):", ...errors]
        : []),
    ];
    if (problems.length > 0) throw new Error(problems.join("\n"));
  };
}
