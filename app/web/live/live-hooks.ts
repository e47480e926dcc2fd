/**
 * The live connection for React: hooks for the components that want to hear about changes (`useLiveChanges`,
 * `useLiveReset`) or show the connection (`useLiveState`, `useLiveLoaded`).
 *
 * Nothing of the connection is in a visitor's first load: public pages import this module once idle
 * (root.tsx), and it loads `live-tabs.ts` only once a component asks for changes or resets. When the last
 * asker unmounts (a navigation) the connection goes after a grace period, so that the next page asking again does
 * not reconnect. `useLiveState` only watches: showing the connection does not open it.
 */
import { useEffect, useEffectEvent, useSyncExternalStore } from "react";
import type { LiveEvent, LiveState } from "./live-connection.ts";
import type { LiveTabs } from "./live-tabs.ts";

export type { LiveEvent, LiveState } from "./live-connection.ts";

/** Once nothing asks any more, how long the connection stays for a next page that may ask again. */
const RELEASE_AFTER_MS = 10_000;
/** Without requestIdleCallback (Safari), how long after asking the connection's code loads. */
const IDLE_FALLBACK_MS = 1_000;

type ChangeHandler = (events: LiveEvent[]) => void;

/** The provider's state and subscribers, outside React so that a change re-renders only the state's watchers. */
class LiveStore {
  state: LiveState = "disconnected";
  /** Whether the connection's code has loaded and started (before, `state` means nothing). */
  loaded = false;
  private readonly watchers = new Set<() => void>();
  private readonly changeHandlers = new Set<ChangeHandler>();
  private readonly resetHandlers = new Set<() => void>();
  private tabs: LiveTabs | null = null;
  private wanted = 0;
  private pending: (() => void) | null = null;
  private releaseTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  watch = (onChange: () => void): (() => void) => {
    this.watchers.add(onChange);
    return () => this.watchers.delete(onChange);
  };

  onChanges(handler: ChangeHandler): () => void {
    this.changeHandlers.add(handler);
    const release = this.want();
    return () => {
      this.changeHandlers.delete(handler);
      release();
    };
  }

  onReset(handler: () => void): () => void {
    this.resetHandlers.add(handler);
    const release = this.want();
    return () => {
      this.resetHandlers.delete(handler);
      release();
    };
  }

  /** The provider mounted (again, in React's strict mode): the askers' effects, which ran first, may load now. */
  start(): void {
    this.stopped = false;
    if (this.wanted > 0 && !this.tabs && !this.pending) this.pending = whenIdle(() => this.load());
  }

  /** The provider unmounted: no connection, whatever still asks. */
  stop(): void {
    this.stopped = true;
    this.pending?.();
    this.pending = null;
    if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
    this.release();
  }

  private want(): () => void {
    this.wanted += 1;
    if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
    if (!this.tabs && !this.pending) this.pending = whenIdle(() => this.load());
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.wanted -= 1;
      if (this.wanted > 0) return;
      if (this.pending) {
        this.pending();
        this.pending = null;
      } else if (this.tabs) this.releaseTimer = setTimeout(() => this.release(), RELEASE_AFTER_MS);
    };
  }

  private release(): void {
    this.releaseTimer = null;
    this.tabs?.dispose();
    this.tabs = null;
    if (!this.loaded) return;
    this.loaded = false;
    this.setState("disconnected", true);
  }

  private load(): void {
    let cancelled = false;
    this.pending = () => {
      cancelled = true;
    };
    import("./live-tabs.ts").then(
      ({ startLiveTabs }) => {
        if (cancelled || this.stopped) return;
        this.pending = null;
        this.tabs = startLiveTabs({
          url: this.url,
          onState: (state) => this.setState(state),
          onChanges: (events) => this.dispatch(this.changeHandlers, (handler) => handler(events)),
          onReset: () => this.dispatch(this.resetHandlers, (handler) => handler()),
        });
        this.loaded = true;
        this.setState(this.tabs.state, true);
      },
      (error: unknown) => {
        // A chunk that fails to load (a deploy replaced it): the page works as before, only not live.
        if (cancelled) return;
        this.pending = null;
        console.error(error);
      },
    );
  }

  private setState(state: LiveState, force = false): void {
    if (this.state === state && !force) return;
    this.state = state;
    // For browser tests, which wait for `data-live="connected"`; absent until the connection's code runs.
    if (this.loaded) document.documentElement.dataset.live = state;
    else delete document.documentElement.dataset.live;
    for (const watcher of this.watchers) watcher();
  }

  /** One failing handler does not keep the others from hearing (its error is reported, not swallowed). */
  private dispatch<Handler>(handlers: Set<Handler>, call: (handler: Handler) => void): void {
    for (const handler of [...handlers]) {
      try {
        call(handler);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
}

/** Runs `callback` when the browser is idle (or after a second); returns the cancel. */
function whenIdle(callback: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(callback, { timeout: 5_000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(callback, IDLE_FALLBACK_MS);
  return () => clearTimeout(handle);
}

/**
 * The browser's one store (a module, not a React context): public pages load this module only once they are idle
 * (root.tsx), the admin's screens with their own code; both find the same store.
 */
const store = new LiveStore("/api/events");
store.start();

/**
 * The connection's state. "disconnected" also before its code has loaded, or with nothing asking for changes:
 * check `useLiveLoaded()` before showing that as a problem.
 */
export function useLiveState(): LiveState {
  return useSyncExternalStore(
    store.watch,
    () => store.state,
    () => "disconnected",
  );
}

/** Whether the connection's code has loaded and runs (a "not connected" indicator makes sense only then). */
export function useLiveLoaded(): boolean {
  return useSyncExternalStore(
    store.watch,
    () => store.loaded,
    () => false,
  );
}

/**
 * Calls `handler` with the changes the server announces, only those of `areas` when given (e.g. `["gallery"]`);
 * asking opens the connection (once the page is idle). The latest `handler` is called: no need to memoise it.
 */
export function useLiveChanges(handler: (events: LiveEvent[]) => void, areas?: string[]): void {
  const onEvents = useEffectEvent(handler);
  // A key rather than the array, so that a new `["gallery"]` on each render does not subscribe again.
  const areaKey = areas ? areas.join("\n") : null;
  useEffect(() => {
    const wanted = areaKey === null ? null : new Set(areaKey.split("\n"));
    return store.onChanges((events) => {
      const mine = wanted ? events.filter((event) => wanted.has(event.area)) : events;
      if (mine.length > 0) onEvents(mine);
    });
  }, [areaKey]);
}

/**
 * Calls `handler` when the server could not give what was missed while away: everything shown may be stale and
 * must be loaded again (e.g. `revalidate()` of React Router's `useRevalidator`).
 */
export function useLiveReset(handler: () => void): void {
  const onReset = useEffectEvent(handler);
  useEffect(() => {
    return store.onReset(() => onReset());
  }, []);
}
