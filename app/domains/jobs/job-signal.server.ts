/**
 * This process's "a job was queued" signal: the worker of this process wakes at once instead of at its next poll
 * (other processes find the job at theirs, within a second). Process-wide on purpose, like the job table it
 * stands for: whoever queues a job needs no handle on the worker.
 */
const listeners = new Set<() => void>();

export function onJobsQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalJobsQueued(): void {
  for (const listener of [...listeners]) listener();
}

/**
 * The jobs whose work runs in this process now (a worker's, or an upload's own): at a stop these are not handed back
 * to the queue, since their work goes on until the process ends, and another process taking them over at once would
 * run them twice side by side. Their lease runs out instead.
 */
export const jobsRunningHere = new Set<string>();
