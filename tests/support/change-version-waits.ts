import type { ChangeArea } from "#app/db/change-areas.ts";
import type { DatabaseKind } from "#app/db/database.server.ts";

/** What the waits read: the database's change version, of every area or of some. */
type Versioned = { changeVersion: (areas?: readonly ChangeArea[]) => number };

/**
 * Waits for the change version of a test database, for tests of what it drops: PostgreSQL's listener connects on
 * first use (until then every call counts as a change) and tells of a commit a moment after it.
 */
export function changeVersionWaits(database: Versioned, kind: DatabaseKind) {
  async function until(condition: () => boolean, timeoutMs = 3000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error("the change version did not move in time");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Until the version holds still: the listener is connected. */
  async function listening() {
    let previous = database.changeVersion();
    await until(() => {
      const next = database.changeVersion();
      const steady = next === previous;
      previous = next;
      return steady;
    });
  }

  /**
   * Runs a write to `area`'s table through this process. PostgreSQL also tells of its commit (the trigger's
   * notification, a moment later, moving the area again): wait for it, so that it cannot land between the reads.
   */
  async function write(area: ChangeArea, run: () => Promise<unknown>) {
    const start = database.changeVersion([area]);
    await run();
    if (kind === "postgres") await until(() => database.changeVersion([area]) >= start + 2);
  }

  return { until, listening, write };
}
