/*
 * Memory given back once a burst of work is done. V8 keeps the garbage of a burst (the start's migrations and
 * warm-ups, a wave of visitors) in its heap until allocation pressure makes it collect, and a quiet site makes none:
 * on a machine with memory to spare the heap grows freely under load and stays grown. Measured on a site of 10,000
 * pictures and 2,000 posts: 181 MB resident 10 s after the start, 138 MB after one collection (82 ms, once); after
 * 5 s of uncached /faq at 50 connections, 343 MB, then 196 MB.
 */

type Collect = (options?: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * One full collection, of the "last-resort" flavour: the one that also gives the freed pages back to the system (a
 * plain `gc()` left 176 of the 181 MB). `npm start` runs Node with `--expose-gc` for this; without the flag (the
 * tests, `npm run dev`) it does nothing. Answers whether it collected.
 */
export function settleMemory(): boolean {
  const collect = (globalThis as { gc?: Collect }).gc;
  if (typeof collect !== "function") return false;
  collect({ type: "major", execution: "sync", flavor: "last-resort" });
  return true;
}

/** Requests this process has been asked so far: the web edge counts them (server/app.ts, `logRequest`). */
let requests = 0;

export function noteRequest(): void {
  requests++;
}

/**
 * Settles the memory when the site falls quiet: looked at every `everyMs`, it collects when no request came since
 * the last look but some came since the last collection, or the start's work is not collected yet. Steady traffic
 * never waits for it (it then runs when V8 decides), and a quiet site pays it once per burst. Returns the stop.
 */
export function startQuietSettling(options: {
  everyMs: number;
  settle?: () => boolean;
  requestCount?: () => number;
}): () => void {
  const settle = options.settle ?? settleMemory;
  const count = options.requestCount ?? (() => requests);
  let seen = count();
  // The start's own work is the first burst.
  let unsettled = true;
  const timer = setInterval(() => {
    const now = count();
    if (now !== seen) {
      seen = now;
      unsettled = true;
      return;
    }
    if (!unsettled) return;
    unsettled = false;
    settle();
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
