/**
 * The in-process queue for the image pipeline's background work (finishing uploads, redrawing watermarks):
 * one task at a time, so that a 2-core server keeps answering pages while sharp works, and so that a
 * watermark redraw never runs alongside an upload being finished (each reads the settings when it starts).
 */
let tail: Promise<unknown> = Promise.resolve();

/** Runs `task` after every task queued before it; its result (or error) is the returned promise's. */
export function runInImageQueue<T>(task: () => Promise<T>): Promise<T> {
  const run = tail.then(task);
  tail = run.catch(() => {});
  return run;
}

/** Resolves once nothing is queued or running any more (tasks may queue more while it waits). */
export async function whenImageQueueIdle(): Promise<void> {
  let seen: Promise<unknown>;
  do {
    seen = tail;
    await seen;
  } while (seen !== tail);
}
