// Preloaded into a server under measurement (`node --import`, scripts/measure-latency-tail.ts): how late the event
// loop ran and which collections paused it. Each SIGUSR2 writes one `LOOP-PROBE {json}` line to stderr with what
// happened since the last one, then starts afresh, so a measuring script can bracket each load run. Plain
// JavaScript so that it loads into the production build without a compiler.
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
let pauses = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ kind: entry.detail?.kind ?? 0, ms: entry.duration });
}).observe({ entryTypes: ["gc"] });

process.on("SIGUSR2", () => {
  const ms = (nanoseconds) => nanoseconds / 1e6;
  const line = {
    delay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    pauses,
  };
  process.stderr.write(`LOOP-PROBE ${JSON.stringify(line)}\n`);
  delay.reset();
  pauses = [];
});
