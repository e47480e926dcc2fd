import { isDatabaseUnreachable } from "#app/db/database.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";

/**
 * Logs a failure of background work (the change feed's read, a sweep): while the database cannot be reached
 * (stopped, restarting, shutting down) one line with the reason, as a request logs it, since a stack says nothing
 * there and would come with every task; any other failure with its stack.
 */
export function logBackgroundFailure(logger: Logger, message: string, error: unknown): void {
  if (isDatabaseUnreachable(error)) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn({ reason }, `${message}: the database is unreachable`);
    return;
  }
  logger.warn({ err: error }, message);
}
