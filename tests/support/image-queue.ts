import { runInImageQueue } from "#app/domains/media/image-queue.server.ts";

/**
 * Holds the image queue (as other work ahead would) until `release` is called, so that a test can look at
 * an image before its background work runs. `done` resolves once the hold has been let go.
 */
export function holdImageQueue(): { release: () => void; done: Promise<void> } {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { release, done: runInImageQueue(() => released) };
}
