/**
 * One live connection per browser, however many tabs show the site: the server caps streams per address, and a
 * visitor with ten tabs should not hold ten. The tab holding the Web Lock `vitrine-live` (held for as long as the
 * tab lives, released by the browser when it closes) is the leader: it runs the connection and relays its state,
 * changes and resets to the other tabs over the BroadcastChannel `vitrine-live`. A tab waiting for the lock takes
 * over when the leader goes, resuming after the last id the channel told it.
 *
 * Each tab tells the leader whether it is visible; once every tab has been hidden for `hiddenCloseMs` the leader
 * closes the connection (nobody is looking) and opens it again as soon as one is visible. A browser closing a tab
 * makes it hidden first, so a closed follower counts as hidden. Without Web Locks or BroadcastChannel every tab
 * runs its own connection.
 */
import {
  createLiveConnection,
  type LiveConnection,
  type LiveConnectionOptions,
  type LiveEvent,
  type LiveState,
  type TimerHandle,
} from "./live-connection.ts";

/** The lock's and the channel's name. */
export const LIVE_TABS_NAME = "vitrine-live";
export const DEFAULT_HIDDEN_CLOSE_MS = 60_000;

/** Whether this tab is visible, and a way to hear when that changes (default: the document's visibility). */
export type VisibilitySource = { visible(): boolean; subscribe(onChange: () => void): () => void };

export type LiveTabsOptions = {
  /** The stream's address (`/api/events`). */
  url?: string;
  /** The lock's and the channel's name (tests give each their own). */
  name?: string;
  /**
   * How long every tab must have been hidden before the connection closes (60 s). A number in
   * `globalThis.__vitrineLiveHiddenCloseMs` wins over this, so that browser tests can shorten it.
   */
  hiddenCloseMs?: number;
  onState?: (state: LiveState) => void;
  onChanges?: (events: LiveEvent[]) => void;
  onReset?: () => void;
  /** The browser's by default; `null` runs this tab's own connection. */
  locks?: Pick<LockManager, "request"> | null;
  /** `new BroadcastChannel(name)` by default; `null` runs this tab's own connection. */
  createChannel?: ((name: string) => BroadcastChannel) | null;
  visibility?: VisibilitySource;
} & Partial<Pick<LiveConnectionOptions, "fetch" | "setTimeout" | "clearTimeout" | "random">>;

export type LiveTabs = {
  /** The connection's state as the leader last reported it (its own, in the leader). */
  readonly state: LiveState;
  /** Whether this tab runs the connection. */
  readonly leader: boolean;
  /** Leaves: a leader closes its connection and lets go of the lock, for a waiting tab to take over. */
  dispose(): void;
};

/** What the tabs say to each other over the channel. */
type TabMessage =
  /** A tab joined: the leader answers with its state. */
  | { type: "hello"; tab: string; visible: boolean }
  /** A tab became leader: the others tell it whether they are visible. */
  | { type: "leader" }
  | { type: "visibility"; tab: string; visible: boolean }
  /** A follower left (disposed). */
  | { type: "gone"; tab: string }
  | { type: "state"; state: LiveState; lastEventId: string | null }
  | { type: "changes"; events: LiveEvent[]; lastEventId: string | null }
  | { type: "reset"; lastEventId: string | null };

export function startLiveTabs(options: LiveTabsOptions = {}): LiveTabs {
  const name = options.name ?? LIVE_TABS_NAME;
  const hiddenCloseMs = hiddenCloseMsOf(options.hiddenCloseMs);
  const setTimer = options.setTimeout ?? ((callback: () => void, ms: number) => globalThis.setTimeout(callback, ms));
  const clearTimer =
    options.clearTimeout ?? ((handle: TimerHandle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));
  const locks = options.locks !== undefined ? options.locks : (globalThis.navigator?.locks ?? null);
  const createChannel =
    options.createChannel !== undefined
      ? options.createChannel
      : typeof BroadcastChannel === "function"
        ? (channelName: string) => new BroadcastChannel(channelName)
        : null;
  const visibility = options.visibility ?? documentVisibility();
  const tab = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

  // A follower does not know the state until the leader answers its hello; someone is connecting meanwhile.
  let state: LiveState = "connecting";
  let lastEventId: string | null = null;
  let disposed = false;
  let connection: LiveConnection | null = null;
  /** The leader's view of which tabs are visible (itself included). */
  const visibleTabs = new Set<string>();
  let hiddenTimer: TimerHandle | null = null;
  /** The leader closed the connection because every tab was hidden. */
  let pausedWhileHidden = false;
  let releaseLock: (() => void) | null = null;
  const lockRequest = new AbortController();

  const channel = locks && createChannel ? createChannel(name) : null;

  function setState(next: LiveState): void {
    if (state === next) return;
    state = next;
    options.onState?.(next);
  }

  function post(message: TabMessage): void {
    if (!disposed) channel?.postMessage(message);
  }

  function lead(): void {
    visibleTabs.clear();
    if (visibility.visible()) visibleTabs.add(tab);
    const own = createLiveConnection({
      url: options.url ?? "/api/events",
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      setTimeout: setTimer,
      clearTimeout: clearTimer,
      random: options.random ?? Math.random,
      lastEventId,
      onState: (next) => {
        if (disposed) return;
        lastEventId = own.lastEventId;
        setState(next);
        post({ type: "state", state: next, lastEventId });
      },
      onChanges: (events) => {
        lastEventId = own.lastEventId;
        post({ type: "changes", events, lastEventId });
        options.onChanges?.(events);
      },
      onReset: () => {
        lastEventId = own.lastEventId;
        post({ type: "reset", lastEventId });
        options.onReset?.();
      },
    });
    connection = own;
    post({ type: "leader" });
    own.connect();
    watchHidden();
  }

  /** The leader: arm, or drop, the close for all-hidden; open again when someone looks. */
  function watchHidden(): void {
    if (!connection) return;
    if (visibleTabs.size > 0) {
      if (hiddenTimer !== null) clearTimer(hiddenTimer);
      hiddenTimer = null;
      if (pausedWhileHidden) {
        pausedWhileHidden = false;
        connection.connect();
      }
      return;
    }
    if (hiddenTimer !== null || pausedWhileHidden) return;
    hiddenTimer = setTimer(() => {
      hiddenTimer = null;
      pausedWhileHidden = true;
      connection?.close();
    }, hiddenCloseMs);
  }

  function noteVisibility(which: string, visible: boolean): void {
    if (visible) visibleTabs.add(which);
    else visibleTabs.delete(which);
    watchHidden();
  }

  function receive(message: TabMessage): void {
    if (disposed) return;
    switch (message.type) {
      case "hello":
        if (!connection) return;
        noteVisibility(message.tab, message.visible);
        post({ type: "state", state, lastEventId: connection.lastEventId });
        return;
      case "leader":
        if (!connection) post({ type: "visibility", tab, visible: visibility.visible() });
        return;
      case "visibility":
        if (connection) noteVisibility(message.tab, message.visible);
        return;
      case "gone":
        if (connection) noteVisibility(message.tab, false);
        return;
      case "state":
        if (connection) return;
        lastEventId = message.lastEventId ?? lastEventId;
        setState(message.state);
        return;
      case "changes":
        if (connection) return;
        lastEventId = message.lastEventId ?? lastEventId;
        options.onChanges?.(message.events);
        return;
      case "reset":
        if (connection) return;
        lastEventId = message.lastEventId ?? lastEventId;
        options.onReset?.();
        return;
    }
  }

  const unwatchVisibility = visibility.subscribe(() => {
    if (disposed) return;
    if (connection) noteVisibility(tab, visibility.visible());
    else post({ type: "visibility", tab, visible: visibility.visible() });
  });

  if (channel && locks) {
    channel.onmessage = (event: MessageEvent<TabMessage>) => receive(event.data);
    post({ type: "hello", tab, visible: visibility.visible() });
    locks
      .request(name, { signal: lockRequest.signal }, () => {
        if (disposed) return;
        lead();
        // Held until this tab goes (`dispose`, or the browser when the tab closes).
        return new Promise<void>((resolve) => {
          releaseLock = resolve;
        });
      })
      .catch(() => {
        // Aborted by `dispose`; or locks refused here (a sandboxed frame): then this tab runs its own connection.
        if (!disposed && !connection) lead();
      });
  } else {
    lead();
  }

  return {
    get state() {
      return state;
    },
    get leader() {
      return connection !== null;
    },
    dispose() {
      if (disposed) return;
      if (!connection) post({ type: "gone", tab });
      disposed = true;
      unwatchVisibility();
      if (hiddenTimer !== null) clearTimer(hiddenTimer);
      connection?.close();
      lockRequest.abort();
      releaseLock?.();
      channel?.close();
    },
  };
}

function hiddenCloseMsOf(option: number | undefined): number {
  const forTests = (globalThis as { __vitrineLiveHiddenCloseMs?: unknown }).__vitrineLiveHiddenCloseMs;
  if (typeof forTests === "number" && forTests >= 0) return forTests;
  return option ?? DEFAULT_HIDDEN_CLOSE_MS;
}

function documentVisibility(): VisibilitySource {
  if (typeof document === "undefined") return { visible: () => true, subscribe: () => () => {} };
  return {
    visible: () => document.visibilityState !== "hidden",
    subscribe(onChange) {
      document.addEventListener("visibilitychange", onChange);
      return () => document.removeEventListener("visibilitychange", onChange);
    },
  };
}
