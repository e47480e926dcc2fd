/**
 * One live connection to `GET /api/events` (Server-Sent Events), as a small state machine whose every outside
 * dependency (fetch, clock, randomness) is passed in, so that its timeouts and backoff are tested with a fake clock.
 *
 * `fetch` with a streaming body, not `EventSource`: EventSource can neither give up on a connection that does not
 * answer within 10 s, nor send our own `Last-Event-ID` on the first request of a tab taking over, nor read the
 * `Retry-After` of a 429/503, nor back off with jitter (it retries at its own fixed pace).
 *
 * States: `disconnected` (none wanted: before `connect()`, after `close()`), `connecting` (an attempt is under way
 * or the next one is waiting for its backoff delay), `connected` (the server sent `ready`), `disconnecting` (closed
 * by hand, the request still ending).
 */

export type LiveState = "disconnected" | "connecting" | "connected" | "disconnecting";

export type LiveAction = "insert" | "update" | "delete";

/** One change the server announced: what kind of thing (`area`), what happened to it, and which one. */
export type LiveEvent = { seq: number; area: string; action: LiveAction; id: string | null };

export type LiveByeReason = "signed-out" | "role-changed" | "shutdown";

/** A timer handle as the injected clock returns it (a number in browsers, an object in Node). */
export type TimerHandle = unknown;

export type LiveConnectionOptions = {
  /** The stream's address, e.g. `/api/events`. */
  url: string;
  /** `fetch` (the browser's, or a fake in tests); called with an AbortSignal and the `Last-Event-ID` header. */
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  setTimeout: (callback: () => void, ms: number) => TimerHandle;
  clearTimeout: (handle: TimerHandle) => void;
  /** A number in [0, 1) for the backoff's jitter (`Math.random`). */
  random: () => number;
  /** Every change of state, in order. */
  onState?: (state: LiveState) => void;
  /** The events of one `change` message (never empty). */
  onChanges?: (events: LiveEvent[]) => void;
  /** The server cannot give what was missed since the last id: the page must reload everything it shows. */
  onReset?: () => void;
  /** The server said goodbye before ending the stream (a reconnect follows on its own). */
  onBye?: (reason: string) => void;
  /** Where to resume from (the last id another tab received), sent as `Last-Event-ID` on the first attempt. */
  lastEventId?: string | null;
  /** No `ready` within this → abort, count as a failure (10 s). */
  connectTimeoutMs?: number;
  /** No bytes at all for this long once connected → two heartbeats (25 s apart) missed: reconnect (55 s). */
  heartbeatTimeoutMs?: number;
  /** The backoff's first ceiling (1 s), doubled per failed attempt up to `maxBackoffMs` (30 s). */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
};

export type LiveConnection = {
  readonly state: LiveState;
  /** The id of the last message that carried one (`ready`, `change`, `reset`), sent back when resuming. */
  readonly lastEventId: string | null;
  /** Starts connecting (and reconnecting after drops) until `close()`; nothing when already at it. */
  connect(): void;
  /** Closes by hand: `disconnecting` → `disconnected`, no reconnect until `connect()` again. */
  close(): void;
};

type Attempt = {
  controller: AbortController;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  /** Set once it stopped counting (timed out, dropped, closed), so that it ends only once. */
  over: boolean;
};

export function createLiveConnection(options: LiveConnectionOptions): LiveConnection {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 55_000;
  const baseBackoffMs = options.baseBackoffMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;

  let state: LiveState = "disconnected";
  let lastEventId = options.lastEventId ?? null;
  /** Failed attempts since the last `ready`: the exponent of the backoff's ceiling. */
  let failures = 0;
  let current: Attempt | null = null;
  /** The timer of the moment: the connect timeout, the heartbeat watch, or the wait before the next attempt. */
  let timer: TimerHandle | null = null;
  /** The attempt closed by hand whose request is still ending (`disconnecting`). */
  let closing: Attempt | null = null;
  /** `connect()` called while `closing` was still ending: start once it has. */
  let connectAfterClose = false;

  function setState(next: LiveState): void {
    if (state === next) return;
    state = next;
    guarded(() => options.onState?.(next));
  }

  function arm(ms: number, callback: () => void): void {
    disarm();
    timer = options.setTimeout(() => {
      timer = null;
      callback();
    }, ms);
  }

  function disarm(): void {
    if (timer === null) return;
    options.clearTimeout(timer);
    timer = null;
  }

  /** Ends an attempt without a hand close: the reconnect waits a jittered delay, at least the server's Retry-After. */
  function drop(attempt: Attempt, retryAfterMs = 0): void {
    if (attempt.over) return;
    stop(attempt);
    const ceiling = Math.min(maxBackoffMs, baseBackoffMs * 2 ** failures);
    failures += 1;
    const delay = Math.max(retryAfterMs, options.random() * ceiling);
    setState("connecting");
    arm(delay, start);
  }

  function stop(attempt: Attempt): void {
    attempt.over = true;
    if (current === attempt) current = null;
    disarm();
    attempt.controller.abort();
    // A fetch that ignores the signal still lets go of its body this way (a pending read ends as done).
    attempt.reader?.cancel().catch(() => {});
  }

  function start(): void {
    const attempt: Attempt = { controller: new AbortController(), reader: null, over: false };
    current = attempt;
    setState("connecting");
    arm(connectTimeoutMs, () => drop(attempt));
    void run(attempt);
  }

  async function run(attempt: Attempt): Promise<void> {
    try {
      const headers: Record<string, string> = { Accept: "text/event-stream" };
      if (lastEventId !== null) headers["Last-Event-ID"] = lastEventId;
      const response = await options.fetch(options.url, {
        headers,
        signal: attempt.controller.signal,
        cache: "no-store",
        credentials: "same-origin",
      });
      if (attempt.over) {
        response.body?.cancel().catch(() => {});
        return;
      }
      if (response.status !== 200 || !response.body) {
        response.body?.cancel().catch(() => {});
        drop(attempt, retryAfterMs(response.headers.get("Retry-After")));
        return;
      }
      const reader = response.body.getReader();
      attempt.reader = reader;
      const decoder = new TextDecoder();
      const parser = createSseParser((message) => receive(attempt, message));
      for (;;) {
        const { done, value } = await reader.read();
        if (done || attempt.over) break;
        // Any bytes, a heartbeat comment included, prove the stream alive.
        if (state === "connected") arm(heartbeatTimeoutMs, () => drop(attempt));
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // A network error, an abort, a broken stream: all count as a failed attempt (below).
    } finally {
      finish(attempt);
    }
  }

  /** After the attempt's request ended, whatever ended it. */
  function finish(attempt: Attempt): void {
    if (!attempt.over) drop(attempt);
    else if (attempt === closing) {
      closing = null;
      setState("disconnected");
      if (connectAfterClose) {
        connectAfterClose = false;
        start();
      }
    }
  }

  function receive(attempt: Attempt, message: SseMessage): void {
    if (attempt.over) return;
    if (message.id !== undefined) lastEventId = message.id;
    switch (message.event) {
      case "ready":
        failures = 0;
        setState("connected");
        arm(heartbeatTimeoutMs, () => drop(attempt));
        return;
      case "change": {
        const events = parseEvents(message.data);
        if (events.length > 0) guarded(() => options.onChanges?.(events));
        return;
      }
      case "reset":
        guarded(() => options.onReset?.());
        return;
      case "bye": {
        const reason = parseJson(message.data) as { reason?: unknown } | null;
        guarded(() => options.onBye?.(typeof reason?.reason === "string" ? reason.reason : ""));
        // The server ends the stream next; reconnect as after any drop (the cookie decides what the next carries).
        drop(attempt);
        return;
      }
    }
  }

  return {
    get state() {
      return state;
    },
    get lastEventId() {
      return lastEventId;
    },
    connect() {
      if (state === "disconnecting") connectAfterClose = true;
      else if (state === "disconnected") start();
    },
    close() {
      connectAfterClose = false;
      if (state === "disconnected" || state === "disconnecting") return;
      const attempt = current;
      disarm();
      setState("disconnecting");
      closing = attempt;
      if (attempt) stop(attempt);
      // Its request ends asynchronously; `finish` moves on to `disconnected` then.
      else setState("disconnected");
    },
  };
}

/** `Retry-After` in seconds (the only form our server sends); anything else means no floor. */
function retryAfterMs(header: string | null): number {
  if (!header || !/^\s*\d+\s*$/.test(header)) return 0;
  return Number(header) * 1000;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const ACTIONS = new Set<string>(["insert", "update", "delete"]);

/** The well-formed events of a `change` message's data; a malformed one is skipped rather than breaking the page. */
function parseEvents(data: string): LiveEvent[] {
  const parsed = parseJson(data) as { events?: unknown } | null;
  if (!parsed || !Array.isArray(parsed.events)) return [];
  const events: LiveEvent[] = [];
  for (const item of parsed.events as Array<Record<string, unknown> | null>) {
    if (!item || typeof item.seq !== "number" || typeof item.area !== "string") continue;
    if (typeof item.action !== "string" || !ACTIONS.has(item.action)) continue;
    const id = typeof item.id === "string" ? item.id : null;
    events.push({ seq: item.seq, area: item.area, action: item.action as LiveAction, id });
  }
  return events;
}

/** Calls a page's callback so that its error reaches the console without breaking the connection's loop. */
function guarded(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
    if (report) report(error);
    else console.error(error);
  }
}

export type SseMessage = { event: string; data: string; id: string | undefined };

/**
 * A Server-Sent Events parser (the WHATWG "event stream interpretation"), by hand rather than a dependency: the
 * format is a handful of rules and this is all of them that a client of our one server needs. Text is fed as it
 * arrives (decoded with `stream: true`), so a line, even a `\r\n`, may be split across chunks. Lines end in `\n`,
 * `\r\n` or `\r`; `:` starts a comment; `data:` lines accumulate, joined by `\n`; a blank line dispatches; a message
 * without data is not dispatched; `retry:` is ignored (our backoff decides). `id` is the message's own id field,
 * if it had one.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): { feed(text: string): void } {
  let buffer = "";
  /** The last character was a `\r`: a `\n` right after it (maybe in the next chunk) ends no second line. */
  let afterCr = false;
  let event = "";
  let data: string[] = [];
  let id: string | undefined;

  function line(text: string): void {
    if (text === "") {
      if (data.length > 0) onMessage({ event: event || "message", data: data.join("\n"), id });
      event = "";
      data = [];
      id = undefined;
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
  }

  return {
    feed(text: string) {
      let start = 0;
      const from = buffer.length;
      buffer += text;
      for (let at = from; at < buffer.length; at++) {
        const char = buffer[at];
        if (char === "\n" && afterCr) {
          afterCr = false;
          start = at + 1;
          continue;
        }
        afterCr = false;
        if (char !== "\r" && char !== "\n") continue;
        line(buffer.slice(start, at));
        start = at + 1;
        afterCr = char === "\r";
      }
      buffer = buffer.slice(start);
    },
  };
}
