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
