import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveEvent, LiveState } from "./live-connection.ts";
import { type LiveTabs, startLiveTabs, type VisibilitySource } from "./live-tabs.ts";

// The tabs are instances in one process: Node's own BroadcastChannel carries their messages and Node's Web Locks
// (navigator.locks, Node 24) elect the leader; each test takes its own name so that none hears another.

/** Web Locks as far as the tabs use them, for a Node without navigator.locks. */
function fakeLocks(): Pick<LockManager, "request"> {
  const queues = new Map<string, Array<() => void>>();
  const request = (name: string, options: LockOptions, callback: () => unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const queue = queues.get(name) ?? [];
      queues.set(name, queue);
      const grant = () => {
        Promise.resolve(callback())
          .then(resolve, reject)
          .finally(() => {
            queue.shift();
            queue[0]?.();
          });
      };
      options.signal?.addEventListener("abort", () => {
        const at = queue.indexOf(grant);
        if (at > 0) queue.splice(at, 1);
        if (at > 0) reject(new DOMException("aborted", "AbortError"));
      });
      queue.push(grant);
      if (queue.length === 1) grant();
    });
  return { request } as Pick<LockManager, "request">;
}

const locks = globalThis.navigator?.locks ?? fakeLocks();

/** A clock that moves only when told to (the connection's timeouts and the all-hidden close). */
class FakeClock {
  now = 0;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;
  setTimeout = (callback: () => void, ms: number) => {
    this.timers.set(this.nextId, { at: this.now + ms, callback });
    return this.nextId++;
  };
  clearTimeout = (id: unknown) => {
    this.timers.delete(id as number);
  };
  /** When the pending timers fall due (the all-hidden close among them, once the leader has armed it). */
  dueTimes(): number[] {
    return [...this.timers.values()].map((timer) => timer.at);
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = end;
  }
}

type Stream = { lastEventId: string | undefined; signal: AbortSignal; push(text: string): void };

/** Answers every request with an event stream the test writes into. */
function fakeServer() {
  const streams: Stream[] = [];
  const encoder = new TextEncoder();
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const signal = init.signal as AbortSignal;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    signal.addEventListener("abort", () => {
      try {
        controller.error(signal.reason);
      } catch {}
    });
    const headers = init.headers as Record<string, string>;
    streams.push({
      lastEventId: headers["Last-Event-ID"],
      signal,
      push: (text) => controller.enqueue(encoder.encode(text)),
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  };
  return { streams, fetch, open: () => streams.filter((stream) => !stream.signal.aborted) };
}

function fakeVisibility(visible: boolean): VisibilitySource & { set(visible: boolean): void } {
  const listeners = new Set<() => void>();
  return {
    visible: () => visible,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    set(next) {
      visible = next;
      for (const listener of listeners) listener();
    },
  };
}

type Tab = {
  tabs: LiveTabs;
  states: LiveState[];
  changes: LiveEvent[][];
  resets: number;
  visibility: ReturnType<typeof fakeVisibility>;
};

const started: LiveTabs[] = [];
let names = 0;

afterEach(() => {
  for (const tabs of started.splice(0)) tabs.dispose();
});

function browser(hiddenCloseMs = 60_000) {
  const name = `vitrine-live-test-${process.pid}-${names++}`;
  const clock = new FakeClock();
  const server = fakeServer();
  const open = (visible = true): Tab => {
    const tab: Tab = { states: [], changes: [], resets: 0, visibility: fakeVisibility(visible) } as unknown as Tab;
    tab.tabs = startLiveTabs({
      name,
      hiddenCloseMs,
      locks,
      visibility: tab.visibility,
      fetch: server.fetch,
      setTimeout: clock.setTimeout,
      clearTimeout: clock.clearTimeout,
      random: () => 0.5,
      onState: (state) => tab.states.push(state),
      onChanges: (events) => tab.changes.push(events),
      onReset: () => {
        tab.resets += 1;
      },
    });
    started.push(tab.tabs);
    return tab;
  };
  return { clock, server, open };
}

const ready = (seq: number) => `event: ready\nid: ${seq}\ndata: {"seq":${seq}}\n\n`;
const change = (seq: number, area: string) =>
  `event: change\nid: ${seq}\ndata: {"events":[{"seq":${seq},"area":"${area}","action":"insert","id":"x${seq}"}]}\n\n`;

describe("one live connection for all tabs", () => {
  it("elects one leader that connects, and relays its state, changes and resets to the others", async () => {
    const { server, open } = browser();
    const tabs = [open(), open(), open()];
    await vi.waitFor(() => expect(tabs.filter((tab) => tab.tabs.leader)).toHaveLength(1));
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    server.streams[0]?.push(ready(10));
    await vi.waitFor(() => expect(tabs.map((tab) => tab.tabs.state)).toEqual(["connected", "connected", "connected"]));
    server.streams[0]?.push(change(11, "gallery"));
    server.streams[0]?.push('event: reset\nid: 30\ndata: {"seq":30}\n\n');
    const expected = [[{ seq: 11, area: "gallery", action: "insert", id: "x11" }]];
    await vi.waitFor(() => {
      for (const tab of tabs) {
        expect(tab.changes).toEqual(expected);
        expect(tab.resets).toBe(1);
      }
    });
    expect(server.streams).toHaveLength(1);
  });

  it("hands over to a waiting tab when the leader goes, resuming after the last id it relayed", async () => {
    const { server, open } = browser();
    const tabs = [open(), open(), open()];
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    server.streams[0]?.push(ready(10));
    server.streams[0]?.push(change(12, "posts"));
    await vi.waitFor(() => expect(tabs.every((tab) => tab.changes.length === 1)).toBe(true));
    const leader = tabs.find((tab) => tab.tabs.leader);
    leader?.tabs.dispose();
    expect(server.streams[0]?.signal.aborted).toBe(true);
    await vi.waitFor(() => expect(server.streams).toHaveLength(2));
    expect(server.streams[1]?.lastEventId).toBe("12");
    const rest = tabs.filter((tab) => tab !== leader);
    expect(rest.filter((tab) => tab.tabs.leader)).toHaveLength(1);
    server.streams[1]?.push(ready(12));
    server.streams[1]?.push(change(13, "faq"));
    await vi.waitFor(() => {
      for (const tab of rest)
        expect(tab.changes.at(-1)).toEqual([{ seq: 13, area: "faq", action: "insert", id: "x13" }]);
    });
    // The follower saw the handover as the new leader's connecting, never as a disconnect.
    const follower = rest.find((tab) => !tab.tabs.leader);
    expect(follower?.tabs.state).toBe("connected");
    expect(follower?.states).not.toContain("disconnected");
  });

  it("closes once every tab has been hidden for hiddenCloseMs, and opens again when one is visible", async () => {
    const { clock, server, open } = browser(5_000);
    const tabs = [open(), open(false), open()];
    await vi.waitFor(() => expect(server.streams).toHaveLength(1));
    server.streams[0]?.push(ready(3));
    await vi.waitFor(() => expect(tabs.every((tab) => tab.tabs.state === "connected")).toBe(true));
    const followers = tabs.filter((tab) => !tab.tabs.leader);
    const leader = tabs.find((tab) => tab.tabs.leader);
    for (const tab of tabs) tab.visibility.set(false);
    // Once the followers' reports have crossed the channel, the leader counts 5 s from now (0).
    await vi.waitFor(() => expect(clock.dueTimes()).toContain(5_000));
    clock.advance(4_999);
    expect(server.open()).toHaveLength(1);
    // A follower looks for a moment: the count starts again from when it hid.
    followers[0]?.visibility.set(true);
    followers[0]?.visibility.set(false);
    await vi.waitFor(() => expect(clock.dueTimes()).toEqual(expect.arrayContaining([9_999])));
    expect(clock.dueTimes()).not.toContain(5_000);
    clock.advance(4_999);
    expect(server.open()).toHaveLength(1);
    clock.advance(1);
    await vi.waitFor(() => expect(tabs.map((tab) => tab.tabs.state)).toEqual(Array(3).fill("disconnected")));
    expect(server.open()).toHaveLength(0);
    // Not closed by hand: nothing reconnects while hidden, and a follower becoming visible reopens.
    clock.advance(120_000);
    expect(server.streams).toHaveLength(1);
    followers[1]?.visibility.set(true);
    await vi.waitFor(() => expect(server.streams).toHaveLength(2));
    expect(server.streams[1]?.lastEventId).toBe("3");
    expect(leader?.tabs.leader).toBe(true);
    server.streams[1]?.push(ready(3));
    await vi.waitFor(() => expect(tabs.every((tab) => tab.tabs.state === "connected")).toBe(true));
  });

  it("takes globalThis.__vitrineLiveHiddenCloseMs over the option", async () => {
    const global = globalThis as { __vitrineLiveHiddenCloseMs?: number };
    global.__vitrineLiveHiddenCloseMs = 100;
    try {
      const { clock, server, open } = browser(60_000);
      const tab = open();
      await vi.waitFor(() => expect(server.streams).toHaveLength(1));
      tab.visibility.set(false);
      clock.advance(100);
      await vi.waitFor(() => expect(tab.tabs.state).toBe("disconnected"));
    } finally {
      delete global.__vitrineLiveHiddenCloseMs;
    }
  });

  it("runs a connection in every tab without Web Locks or BroadcastChannel", async () => {
    const server = fakeServer();
    const clock = new FakeClock();
    const states: LiveState[] = [];
    const solo = () =>
      startLiveTabs({
        locks: null,
        createChannel: null,
        visibility: fakeVisibility(true),
        fetch: server.fetch,
        setTimeout: clock.setTimeout,
        clearTimeout: clock.clearTimeout,
        onState: (state) => states.push(state),
      });
    started.push(solo(), solo());
    await vi.waitFor(() => expect(server.streams).toHaveLength(2));
    expect(started.every((tabs) => tabs.leader)).toBe(true);
  });
});
