import { describe, expect, it } from "vitest";
import {
  createLiveConnection,
  createSseParser,
  type LiveConnectionOptions,
  type LiveEvent,
  type LiveState,
  type SseMessage,
} from "./live-connection.ts";

/** Lets the connection's promises (fetch, stream reads) run; the fake clock never does this by itself. */
async function flush(): Promise<void> {
  for (let round = 0; round < 10; round++) await new Promise((resolve) => setImmediate(resolve));
}

/** A clock that moves only when told to, running the timers that fall due in order. */
class FakeClock {
  now = 0;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;

  setTimeout = (callback: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, callback });
    return id;
  };

  clearTimeout = (id: unknown) => {
    this.timers.delete(id as number);
  };

  /** How long until the next timer fires (null: none pending). */
  nextDelay(): number | null {
    const ats = [...this.timers.values()].map((timer) => timer.at - this.now);
    return ats.length === 0 ? null : Math.min(...ats);
  }

  async advance(ms: number): Promise<void> {
    await flush();
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers]
        .filter(([, timer]) => timer.at <= end)
        .sort(([idA, a], [idB, b]) => a.at - b.at || idA - idB)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
      await flush();
    }
    this.now = end;
    await flush();
  }
}

type Call = {
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Sends text on the stream (a 200 answer only). */
  push(text: string): void;
  /** Ends the stream as a server closing it does. */
  end(): void;
};

type Answer = "stream" | "hang" | "network-error" | { status: number; retryAfter?: string };

/** A server in a function: each request gets the next queued answer, a live event stream when none is queued. */
function fakeServer() {
  const calls: Call[] = [];
  const answers: Answer[] = [];
  const encoder = new TextEncoder();
  const fetch = (_url: string, init: RequestInit): Promise<Response> => {
    const signal = init.signal as AbortSignal;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    const call: Call = {
      headers: { ...(init.headers as Record<string, string>) },
      signal,
      push: (text) => controller.enqueue(encoder.encode(text)),
      end: () => controller.close(),
    };
    calls.push(call);
    const answer = answers.shift() ?? "stream";
    return new Promise<Response>((resolve, reject) => {
      // As the browser's fetch does: an abort rejects a pending request and errors a body being read.
      signal.addEventListener("abort", () => {
        reject(signal.reason);
        try {
          controller.error(signal.reason);
        } catch {}
      });
      if (answer === "hang") return;
      if (answer === "network-error") reject(new TypeError("fetch failed"));
      else if (answer === "stream") resolve(new Response(body, { headers: { "Content-Type": "text/event-stream" } }));
      else {
        const headers: Record<string, string> = answer.retryAfter ? { "Retry-After": answer.retryAfter } : {};
        resolve(new Response("refused", { status: answer.status, headers }));
      }
    });
  };
  return { calls, answers, fetch };
}

function setup(overrides: Partial<LiveConnectionOptions> = {}) {
  const clock = new FakeClock();
  const server = fakeServer();
  const states: LiveState[] = [];
  const changes: LiveEvent[][] = [];
  const byes: string[] = [];
  let resets = 0;
  const connection = createLiveConnection({
    url: "/api/events",
    fetch: server.fetch,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    random: () => 0.5,
    onState: (state) => states.push(state),
    onChanges: (events) => changes.push(events),
    onReset: () => {
      resets += 1;
    },
    onBye: (reason) => byes.push(reason),
    ...overrides,
  });
  return { clock, server, states, changes, byes, connection, resets: () => resets };
}

const ready = (seq: number) => `event: ready\nid: ${seq}\ndata: {"seq":${seq}}\n\n`;

describe("a live connection", () => {
  it("goes through the four states in order and sends no Last-Event-ID on a first connection", async () => {
    const { server, states, connection } = setup();
    expect(connection.state).toBe("disconnected");
    connection.connect();
    await flush();
    expect(states).toEqual(["connecting"]);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.headers).toEqual({ Accept: "text/event-stream" });
    server.calls[0]?.push(ready(4));
    await flush();
    expect(states).toEqual(["connecting", "connected"]);
    expect(connection.lastEventId).toBe("4");
    connection.close();
    expect(connection.state).toBe("disconnecting");
    await flush();
    expect(states).toEqual(["connecting", "connected", "disconnecting", "disconnected"]);
    expect(server.calls[0]?.signal.aborted).toBe(true);
  });

  it("gives up on a connection without `ready` after 10 s and tries again after the backoff", async () => {
    const { clock, server, connection } = setup();
    connection.connect();
    await flush();
    // The stream opened but says nothing.
    await clock.advance(9_999);
    expect(server.calls[0]?.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(server.calls[0]?.signal.aborted).toBe(true);
    expect(connection.state).toBe("connecting");
    // random 0.5 × the first ceiling, 1 s.
    expect(clock.nextDelay()).toBe(500);
    await clock.advance(499);
    expect(server.calls).toHaveLength(1);
    await clock.advance(1);
    expect(server.calls).toHaveLength(2);
  });

  it("also gives up on a request that never answers", async () => {
    const { clock, server, connection } = setup();
    server.answers.push("hang");
    connection.connect();
    await clock.advance(10_000);
    expect(server.calls[0]?.signal.aborted).toBe(true);
    await clock.advance(500);
    expect(server.calls).toHaveLength(2);
  });

  it("reconnects when two heartbeats are missed, and not while they come", async () => {
    const { clock, server, connection } = setup();
    connection.connect();
    await flush();
    server.calls[0]?.push(ready(7));
    await flush();
    await clock.advance(25_000);
    server.calls[0]?.push(": ping\n\n");
    await flush();
    // 55 s after `ready`, but only 30 s after the ping: still alive.
    await clock.advance(30_000);
    expect(server.calls[0]?.signal.aborted).toBe(false);
    expect(connection.state).toBe("connected");
    // 55 s without a byte since the ping.
    await clock.advance(24_999);
    expect(server.calls[0]?.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(server.calls[0]?.signal.aborted).toBe(true);
    expect(connection.state).toBe("connecting");
    await clock.advance(500);
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]?.headers["Last-Event-ID"]).toBe("7");
  });

  it("backs off with full jitter under a doubling ceiling of at most 30 s, and starts over once connected", async () => {
    // Just under 1 for eight failures (each delay then just under its ceiling), then a quarter.
    const randoms = [...Array.from({ length: 8 }, () => 1 - 1e-6), 0.25];
    const { clock, server, connection } = setup({ random: () => randoms.shift() ?? 0.5 });
    for (let index = 0; index < 8; index++) server.answers.push("network-error");
    connection.connect();
    await flush();
    const delays: number[] = [];
    for (let failure = 0; failure < 8; failure++) {
      const delay = clock.nextDelay() ?? -1;
      delays.push(delay);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(Math.min(30_000, 1_000 * 2 ** failure));
      await clock.advance(delay);
    }
    expect(delays.map(Math.round)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(server.calls).toHaveLength(9);
    server.calls[8]?.push(ready(1));
    await flush();
    expect(connection.state).toBe("connected");
    server.calls[8]?.end();
    await flush();
    // Counted from zero again: a quarter of the first ceiling.
    expect(clock.nextDelay()).toBe(250);
  });

  it("waits at least the Retry-After of a refusal", async () => {
    const { clock, server, connection } = setup({ random: () => 0 });
    server.answers.push({ status: 429, retryAfter: "7" }, { status: 503, retryAfter: "2" });
    connection.connect();
    await flush();
    expect(clock.nextDelay()).toBe(7_000);
    await clock.advance(6_999);
    expect(server.calls).toHaveLength(1);
    await clock.advance(1);
    expect(server.calls).toHaveLength(2);
    expect(clock.nextDelay()).toBe(2_000);
    await clock.advance(2_000);
    expect(server.calls).toHaveLength(3);
  });

  it("counts any other answer than 200 as a failure", async () => {
    const { clock, server, connection } = setup();
    server.answers.push({ status: 401 });
    connection.connect();
    await flush();
    expect(connection.state).toBe("connecting");
    expect(clock.nextDelay()).toBe(500);
  });

  it("stops reconnecting once closed by hand, until connect() again", async () => {
    const { clock, server, states, connection } = setup();
    connection.connect();
    await flush();
    server.calls[0]?.push(ready(1));
    await flush();
    server.calls[0]?.end();
    await flush();
    expect(clock.nextDelay()).toBe(500);
    // Closed while waiting for the next attempt.
    connection.close();
    expect(connection.state).toBe("disconnected");
    await clock.advance(120_000);
    expect(server.calls).toHaveLength(1);
    expect(clock.nextDelay()).toBeNull();
    expect(states).toEqual(["connecting", "connected", "connecting", "disconnecting", "disconnected"]);
    connection.connect();
    await flush();
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]?.headers["Last-Event-ID"]).toBe("1");
  });

  it("connect() while still disconnecting starts again once the old request has ended", async () => {
    const { server, states, connection } = setup();
    connection.connect();
    await flush();
    connection.close();
    connection.connect();
    await flush();
    expect(states).toEqual(["connecting", "disconnecting", "disconnected", "connecting"]);
    expect(server.calls).toHaveLength(2);
  });

  it("resumes with the id of the last message it received, or the one it was given", async () => {
    const { clock, server, changes, connection } = setup({ lastEventId: "3" });
    connection.connect();
    await flush();
    expect(server.calls[0]?.headers["Last-Event-ID"]).toBe("3");
    server.calls[0]?.push(ready(5));
    server.calls[0]?.push(
      'event: change\nid: 9\ndata: {"events":[{"seq":8,"area":"gallery","action":"insert","id":"a"},' +
        '{"seq":9,"area":"settings","action":"update","id":null}]}\n\n',
    );
    await flush();
    expect(changes).toEqual([
      [
        { seq: 8, area: "gallery", action: "insert", id: "a" },
        { seq: 9, area: "settings", action: "update", id: null },
      ],
    ]);
    server.calls[0]?.end();
    await clock.advance(500);
    expect(server.calls[1]?.headers["Last-Event-ID"]).toBe("9");
  });

  it("calls onReset on `reset` and resumes after the reset's id", async () => {
    const { clock, server, connection, resets } = setup({ lastEventId: "2" });
    connection.connect();
    await flush();
    server.calls[0]?.push('event: reset\nid: 40\ndata: {"seq":40}\n\n');
    await flush();
    expect(resets()).toBe(1);
    server.calls[0]?.push(ready(40));
    await flush();
    server.calls[0]?.end();
    await clock.advance(500);
    expect(server.calls[1]?.headers["Last-Event-ID"]).toBe("40");
  });

  it("parses a message split in the middle of its lines and of a \\r\\n", async () => {
    const { server, changes, connection } = setup();
    connection.connect();
    await flush();
    server.calls[0]?.push(ready(1).replaceAll("\n", "\r\n"));
    for (const part of [
      "event: cha",
      'nge\r\nid: 3\r\ndata: {"events":[{"seq":3',
      ',"area":"posts","action":"delete","id":"p1"}]}\r',
      "\n\r",
      "\n",
    ]) {
      server.calls[0]?.push(part);
      await flush();
    }
    expect(connection.state).toBe("connected");
    expect(changes).toEqual([[{ seq: 3, area: "posts", action: "delete", id: "p1" }]]);
    expect(connection.lastEventId).toBe("3");
  });

  it("reconnects after `bye`, resuming where it was", async () => {
    const { clock, server, byes, connection } = setup();
    connection.connect();
    await flush();
    server.calls[0]?.push(ready(12));
    server.calls[0]?.push('event: bye\ndata: {"reason":"role-changed"}\n\n');
    await flush();
    expect(byes).toEqual(["role-changed"]);
    expect(server.calls[0]?.signal.aborted).toBe(true);
    expect(connection.state).toBe("connecting");
    await clock.advance(500);
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]?.headers["Last-Event-ID"]).toBe("12");
    server.calls[1]?.push(ready(12));
    await flush();
    expect(connection.state).toBe("connected");
  });
});

describe("the event-stream parser", () => {
  function parse(...chunks: string[]): SseMessage[] {
    const messages: SseMessage[] = [];
    const parser = createSseParser((message) => messages.push(message));
    for (const chunk of chunks) parser.feed(chunk);
    return messages;
  }

  it("joins data lines, skips comments and messages without data, and takes the three line ends", () => {
    expect(parse(": ping\n\n", "data: a\ndata:b\r\ndata\rid: 7\n\n", "event: x\nretry: 5\n\n", "data: c\n")).toEqual([
      { event: "message", data: "a\nb\n", id: "7" },
    ]);
  });

  it("dispatches an event name, strips one space only, and waits for the blank line", () => {
    expect(parse("event: ready\n", "data:  {}\n", "\n")).toEqual([{ event: "ready", data: " {}", id: undefined }]);
    expect(parse("data: x\r", "\r")).toEqual([{ event: "message", data: "x", id: undefined }]);
  });
});
