import type express from "express";
import { type ChangeEvent, mayReceive, type Viewer } from "#app/domains/live/change-event.ts";
import type { StoredChangeEvent } from "#app/domains/live/change-events.server.ts";
import type { ChangeBatch, ChangeFeed } from "#app/domains/live/change-feed.server.ts";

/*
 * GET /api/events: the live stream (issue 19), Server-Sent Events. Each stream is fed from the process's one change
 * feed and carries only what its holder may see; see docs/ARCHITECTURE.md ("Live updates") for the protocol and
 * what a proxy in front must do.
 */

/** Who holds a stream: checked when it opens, and again when that user's sessions or roles change. */
export type StreamIdentity = { viewer: Viewer; userId: string | null };

export type StreamLimits = {
  /** Open streams per client address (a browser holds one, however many tabs). */
  perClient: number;
  /** Open streams in the process. */
  total: number;
  /** A comment line this often, so proxies keep the connection and the client knows it is alive (spec: 25 s). */
  heartbeatMs: number;
  /** Messages waiting for a reader that does not read before it is dropped (spec: a push buffer of 100). */
  maxPending: number;
  /** How often every signed-in stream's session is looked at again (it may have expired). */
  recheckMs: number;
};

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  perClient: 16,
  total: 2000,
  heartbeatMs: 25_000,
  maxPending: 100,
  recheckMs: 60_000,
};

type Stream = {
  res: express.Response;
  address: string;
  cookie: string | undefined;
  identity: StreamIdentity;
  /** The highest seq this stream has been given or skipped. */
  sent: number;
  /** Messages written while the socket's buffer was full; reset when it drains. */
  pending: number;
  backlogged: boolean;
  /** Deliveries in order: a re-check of the identity holds the messages after it. */
  chain: Promise<void>;
  closed: boolean;
};

function sseMessage(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The id a resuming client sends: the header EventSource uses, or `?after=` for a client that cannot set it. */
function resumeFrom(req: express.Request): number | null {
  const raw = req.get("last-event-id") ?? (typeof req.query.after === "string" ? req.query.after : undefined);
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

function publicEvent(event: StoredChangeEvent): ChangeEvent {
  return { seq: event.seq, area: event.area, action: event.action, id: event.id };
}

/** Areas whose events may change who holds a stream: a session ended, a role given or taken, an account gone. */
const IDENTITY_AREAS = new Set(["users", "sessions"]);

/** Who among the members may hear each `groups` event, by seq (app/domains/live/group-readers.server.ts). */
export type GroupReaders = ReadonlyMap<number, ReadonlySet<string>>;

const NO_GROUP_READERS: GroupReaders = new Map();

export function createEventStreams(options: {
  feed: ChangeFeed;
  identify: (cookie: string | undefined) => Promise<StreamIdentity>;
  /** Asked once per batch that holds `groups` events, when a member's stream is to be given it. */
  groupReaders?: (events: readonly StoredChangeEvent[]) => Promise<GroupReaders>;
  limits?: Partial<StreamLimits>;
  onError?: (error: unknown) => void;
}) {
  const limits = { ...DEFAULT_STREAM_LIMITS, ...options.limits };
  const streams = new Set<Stream>();
  const perAddress = new Map<string, number>();
  let reserved = 0;
  let closing = false;

  const release = (address: string) => {
    const left = (perAddress.get(address) ?? 1) - 1;
    if (left <= 0) perAddress.delete(address);
    else perAddress.set(address, left);
  };

  const write = (stream: Stream, text: string) => {
    if (stream.closed) return;
    if (stream.backlogged && ++stream.pending > limits.maxPending) {
      // It stopped reading: what waits for it would only grow.
      stream.closed = true;
      stream.res.destroy();
      return;
    }
    if (!stream.res.write(text)) stream.backlogged = true;
  };

  const end = (stream: Stream, reason: string) => {
    if (stream.closed) return;
    write(stream, sseMessage("bye", { reason }));
    stream.closed = true;
    stream.res.end();
  };

  /**
   * The members who may hear the batch's `groups` events, read once for every stream of the batch and only when a
   * member's stream needs it; a failed read admits no member (admins still hear them).
   */
  const groupReadersOf = (events: readonly StoredChangeEvent[]) => {
    let answer: Promise<GroupReaders> | null = null;
    return (stream: Stream): GroupReaders | Promise<GroupReaders> => {
      if (stream.identity.viewer !== "member" || !options.groupReaders) return NO_GROUP_READERS;
      if (!events.some((event) => event.audience === "groups")) return NO_GROUP_READERS;
      answer ??= options.groupReaders(events).catch((error: unknown) => {
        options.onError?.(error);
        return NO_GROUP_READERS;
      });
      return answer;
    };
  };

  /** Sends the events of `events` the stream may see and has not had; moves its seq past all of them. */
  const send = (stream: Stream, events: readonly StoredChangeEvent[], groupReaders: GroupReaders) => {
    const fresh = events.filter((event) => event.seq > stream.sent);
    if (fresh.length === 0) return;
    const last = fresh[fresh.length - 1]?.seq ?? stream.sent;
    stream.sent = last;
    const userId = stream.identity.userId ?? "";
    const visible = fresh.filter((event) =>
      mayReceive(stream.identity.viewer, event.audience, groupReaders.get(event.seq)?.has(userId) === true),
    );
    if (visible.length > 0) write(stream, sseMessage("change", { events: visible.map(publicEvent) }, last));
  };

  /** Looks at the stream's session again; ends the stream when it no longer holds what it was opened with. */
  const recheck = async (stream: Stream): Promise<boolean> => {
    let now: StreamIdentity;
    try {
      now = await options.identify(stream.cookie);
    } catch (error) {
      options.onError?.(error);
      end(stream, "unavailable");
      return false;
    }
    if (now.viewer === stream.identity.viewer && now.userId === stream.identity.userId) return true;
    end(stream, now.userId === null ? "signed-out" : "role-changed");
    return false;
  };

  const deliver = (stream: Stream, batch: ChangeBatch, readersOf = groupReadersOf(batch.events)) => {
    const userId = stream.identity.userId;
    const touchesHolder =
      userId !== null && batch.events.some((event) => IDENTITY_AREAS.has(event.area) && event.id === userId);
    if (!touchesHolder) {
      stream.chain = stream.chain.then(async () => send(stream, batch.events, await readersOf(stream)));
      return;
    }
    // Nothing after the change of role or session is sent before the stream knows who holds it now.
    stream.chain = stream.chain.then(async () => {
      const index = batch.events.findIndex((event) => IDENTITY_AREAS.has(event.area) && event.id === userId);
      send(stream, batch.events.slice(0, index), await readersOf(stream));
      if (await recheck(stream)) send(stream, batch.events.slice(index), await readersOf(stream));
    });
  };

  const unsubscribe = options.feed.subscribe((batch) => {
    const readersOf = groupReadersOf(batch.events);
    for (const stream of streams) if (!stream.closed) deliver(stream, batch, readersOf);
  });
  const heartbeat = setInterval(() => {
    for (const stream of streams) write(stream, ": ping\n\n");
  }, limits.heartbeatMs);
  heartbeat.unref?.();
  const recheckTimer = setInterval(() => {
    for (const stream of streams) {
      if (stream.identity.userId !== null) stream.chain = stream.chain.then(() => recheck(stream).then(() => {}));
    }
  }, limits.recheckMs);
  recheckTimer.unref?.();

  const refuse = (res: express.Response, status: 429 | 503, retryAfter: number, text: string) => {
    res.status(status).set("Retry-After", String(retryAfter)).type("text/plain").send(text);
  };

  const handle: express.RequestHandler = async (req, res) => {
    const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
    if (closing) return refuse(res, 503, 5, "The server is stopping.");
    if (streams.size + reserved >= limits.total) return refuse(res, 503, 30, "Too many live connections.");
    if ((perAddress.get(address) ?? 0) >= limits.perClient) {
      return refuse(res, 429, 30, "Too many live connections from this address.");
    }
    // Counted before the session is read, so that a burst cannot pass the caps while it waits.
    perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    reserved++;
    const cookie = req.get("cookie");
    let identity: StreamIdentity;
    let replay: StoredChangeEvent[] | "too-old" | null = null;
    const after = resumeFrom(req);
    const buffered: ChangeBatch[] = [];
    const early = options.feed.subscribe((batch) => buffered.push(batch));
    try {
      identity = await options.identify(cookie);
      if (after !== null) replay = await options.feed.replay(after);
    } catch (error) {
      early();
      reserved--;
      release(address);
      options.onError?.(error);
      return refuse(res, 503, 5, "Live updates are unavailable for a moment.");
    }
    reserved--;
    early();
    if (closing || req.socket.destroyed) {
      release(address);
      if (!res.headersSent && !req.socket.destroyed) refuse(res, 503, 5, "The server is stopping.");
      return;
    }
    const head = options.feed.head();
    const start = after !== null && replay !== "too-old" ? after : head;
    const stream: Stream = {
      res,
      address,
      cookie,
      identity,
      sent: start,
      pending: 0,
      backlogged: false,
      chain: Promise.resolve(),
      closed: false,
    };
    streams.add(stream);
    res.status(200).set({
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: neither compression here nor a proxy may hold the stream back to squeeze it.
      "Cache-Control": "no-cache, no-transform",
      // nginx passes it through unbuffered (see docs/ARCHITECTURE.md for other proxies).
      "X-Accel-Buffering": "no",
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
    res.on("drain", () => {
      stream.backlogged = false;
      stream.pending = 0;
    });
    res.on("close", () => {
      stream.closed = true;
      streams.delete(stream);
      release(address);
    });
    write(stream, `retry: 1000\n${sseMessage("ready", { seq: start }, start)}`);
    if (replay === "too-old") write(stream, sseMessage("reset", { seq: head }, head));
    // Through deliver, as live batches: the session may have been read before these events committed, so a change
    // to the holder's own roles or sessions among them is looked at again before anything after it is sent.
    else if (replay) deliver(stream, { events: replay, head });
    for (const batch of buffered) deliver(stream, batch);
  };

  return {
    handle,
    /** Open streams (for tests and the benchmark). */
    size: () => streams.size,
    /** Ends every stream with a goodbye (the server is stopping); new ones are refused from now on. */
    closeAll(reason = "shutdown") {
      closing = true;
      for (const stream of streams) end(stream, reason);
    },
    stop() {
      unsubscribe();
      clearInterval(heartbeat);
      clearInterval(recheckTimer);
    },
  };
}
