/*
 * Memory given back once a burst of work is done. V8 keeps the garbage of a burst (the start's migrations and
 * warm-ups, a wave of visitors) in its heap until allocation pressure makes it collect, and a quiet site makes none:
 * on a machine with memory to spare the heap grows freely under load and stays grown. Measured on a site of 10,000
 * pictures and 2,000 posts: 181 MB resident 10 s after the start, 138 MB after one collection (82 ms, once). It is
 * done once, after the start (`startQuietSettling`): settling after each burst as well (343 MB after 5 s of uncached
 * /faq at 50 connections, 196 MB settled) made the next burst's answers far slower, so a burst's memory is now left
 * for V8 to give back as it decides.
 */

type Collect = (options?: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * One full collection, of the "last-resort" flavour: the one that also gives the freed pages back to the system (a
 * plain `gc()` left 176 of the 181 MB). `npm start` runs Node with `--expose-gc` for this; without the flag (the
 * tests, `npm run dev`) it does nothing. Answers whether it collected. Such a collection also shrinks the young
 * generation to its least, and a server's short-lived garbage never grows it back: `npm start`'s
 * `--min-semi-space-size` keeps it at the size `--max-semi-space-size` allows (a settled process under load
 * otherwise scavenged five times as often).
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
 * Settles the start's memory once the site falls quiet: looked at every `everyMs`, it collects at the first look
 * that finds no request since the one before, then stops. Once only, on purpose: a process settled again after
 * each burst (as it did from 481a424 on) served the next burst far worse. Measured with
 * `scripts/measure-latency-tail.ts` (cached /home, 50 connections, each side idle 15 s between its runs): p99
 * 127 ms against 14.5 ms without settling, and 22 % fewer req/s, with the same garbage collections in the
 * JavaScript. The cost is the memory a burst leaves: V8 gives it back as it decides, not at once.
 */
export function startQuietSettling(options: {
  everyMs: number;
  settle?: () => boolean;
  requestCount?: () => number;
}): () => void {
  const settle = options.settle ?? settleMemory;
  const count = options.requestCount ?? (() => requests);
  let seen = count();
  const timer = setInterval(() => {
    const now = count();
    if (now !== seen) {
      seen = now;
      return;
    }
    clearInterval(timer);
    settle();
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
