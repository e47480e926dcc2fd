import http from "node:http";
import type net from "node:net";
import express from "express";
import type { Audience, Viewer } from "#app/domains/live/change-event.ts";
import type { StoredChangeEvent } from "#app/domains/live/change-events.server.ts";
import type { ChangeBatch, ChangeFeed } from "#app/domains/live/change-feed.server.ts";
import { createEventStreams, type StreamIdentity, type StreamLimits } from "../../server/event-streams.ts";

/*
 * GET /api/events (server/event-streams.ts) on a real HTTP server on an ephemeral port, fed by an in-memory change
 * feed the test pushes batches into, and an `identify` that reads a table of cookies instead of a database: the
 * streams' own rules (flow control, caps, heartbeats, audiences, re-checks) without a server process.
 */

export const VISITOR: StreamIdentity = { viewer: "visitor", userId: null };

/** The change feed's contract, kept in memory: `push` is a batch read from the table. */
export function createFakeFeed() {
  const listeners = new Set<(batch: ChangeBatch) => void>();
  const kept: StoredChangeEvent[] = [];
  let head = 0;
  const feed: ChangeFeed = {
    start: async () => {},
    stop: () => listeners.clear(),
    head: () => head,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async replay(after) {
      if (after > head) return "too-old";
      const oldest = kept[0]?.seq ?? head + 1;
      if (after < oldest - 1) return "too-old";
      return kept.filter((event) => event.seq > after);
    },
    pull: async () => {},
  };
  return {
    feed,
    listeners: () => listeners.size,
    /** Records events (seq after the head) and hands them to the streams as one batch; returns them. */
    push(...events: { area?: string; id?: string | null; audience?: Audience | string }[]): StoredChangeEvent[] {
      const batch = events.map((event) => ({
        seq: ++head,
        area: event.area ?? "links",
        action: "update" as const,
        id: event.id === undefined ? `row-${head}` : event.id,
        audience: (event.audience ?? "everyone") as Audience,
      }));
      kept.push(...batch);
      for (const listener of [...listeners]) listener({ events: batch, head });
      return batch;
    },
    /** Forgets events up to `seq`, as the trim does. */
    trim(seq: number) {
      while ((kept[0]?.seq ?? Number.POSITIVE_INFINITY) <= seq) kept.shift();
    },
  };
}

export type FakeFeed = ReturnType<typeof createFakeFeed>;

/** One message of a stream, with the time it arrived. */
export type Message = { event: string; id: string | undefined; data: unknown; at: number };

export type Reader = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: () => string;
  messages: Message[];
  /** Comment lines (`: ping`) with the time each arrived. */
  comments: { text: string; at: number }[];
  /** Resolves when the connection has closed. */
  ended: Promise<void>;
  isEnded: () => boolean;
  close: () => void;
};

/**
 * Reads a stream as a browser does, in linear time however long a message is (a line is joined only when it ends).
 */
export function readStream(
  url: string,
  options: { cookie?: string; lastEventId?: string; localAddress?: string } = {},
): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (options.cookie) headers.Cookie = options.cookie;
    if (options.lastEventId !== undefined) headers["Last-Event-ID"] = options.lastEventId;
    const outgoing = http.get(url, { headers, agent: false, localAddress: options.localAddress }, (response) => {
      const messages: Message[] = [];
      const comments: { text: string; at: number }[] = [];
      let line = "";
      let block: string[] = [];
      let body = "";
      let ended = false;
      const dispatch = () => {
        let event = "message";
        let id: string | undefined;
        const data: string[] = [];
        for (const each of block) {
          const colon = each.indexOf(":");
          const field = colon < 0 ? each : each.slice(0, colon);
          const value = colon < 0 ? "" : each.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event = value;
          else if (field === "id") id = value;
          else if (field === "data") data.push(value);
        }
        block = [];
        if (data.length > 0) messages.push({ event, id, data: JSON.parse(data.join("\n")), at: Date.now() });
      };
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        // Small answers are kept whole for the assertions on them; a long message only as parsed.
        if (body.length < 64 * 1024) body += chunk.slice(0, 64 * 1024);
        const pieces = chunk.split("\n");
        line += pieces[0];
        for (const piece of pieces.slice(1)) {
          if (line === "") dispatch();
          else if (line.startsWith(":")) comments.push({ text: line, at: Date.now() });
          else block.push(line);
          line = piece;
        }
      });
      const closed = new Promise<void>((done) =>
        response.on("close", () => {
          ended = true;
          done();
        }),
      );
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: () => body,
        messages,
        comments,
        ended: closed,
        isEnded: () => ended,
        close: () => outgoing.destroy(),
      });
    });
    outgoing.on("error", reject);
  });
}

/** Resolves once `condition` holds; fails after `timeoutMs` with what `describe` says. */
export async function until(condition: () => boolean, describe: () => unknown = () => "", timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out; had ${JSON.stringify(describe()).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The seqs of every `change` message a reader got, in order. */
export function seqsIn(reader: Reader): number[] {
  return reader.messages
    .filter((message) => message.event === "change")
    .flatMap((message) => (message.data as { events: { seq: number }[] }).events.map((event) => event.seq));
}

/** A person's cookie, as the fake `identify` knows them. */
export function identity(viewer: Viewer, userId: string | null): StreamIdentity {
  return { viewer, userId };
}

/**
 * The streams on a real server. `people` maps a Cookie header to who holds it (read when `identify` is called, as
 * the database would be); `hold()` makes `identify` answer only once the returned release is called.
 */
export async function serveStreams(
  options: {
    limits?: Partial<StreamLimits>;
    groupReaders?: Parameters<typeof createEventStreams>[0]["groupReaders"];
  } = {},
) {
  const fake = createFakeFeed();
  const people = new Map<string, StreamIdentity>();
  const errors: unknown[] = [];
  const identifyCalls: (string | undefined)[] = [];
  let gate: Promise<void> = Promise.resolve();
  let failing: Error | null = null;
  const streams = createEventStreams({
    feed: fake.feed,
    async identify(cookie) {
      identifyCalls.push(cookie);
      const answer = people.get(cookie ?? "") ?? VISITOR;
      const error = failing;
      await gate;
      if (error) throw error;
      return answer;
    },
    limits: { heartbeatMs: 3_600_000, recheckMs: 3_600_000, ...options.limits },
    groupReaders: options.groupReaders,
    onError: (error) => errors.push(error),
  });
  const app = express();
  app.get("/api/events", streams.handle);
  const server = http.createServer(app);
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const readers: Reader[] = [];
  return {
    ...fake,
    streams,
    people,
    errors,
    identifyCalls,
    url: `http://127.0.0.1:${port}/api/events`,
    port,
    /** The server's end of the connection from this client port. */
    serverSocketFor: (clientPort: number) => [...sockets].find((socket) => socket.remotePort === clientPort),
    hold(): () => void {
      let release = () => {};
      gate = new Promise((resolve) => {
        release = () => {
          gate = Promise.resolve();
          resolve();
        };
      });
      return release;
    },
    failIdentify(error: Error | null) {
      failing = error;
    },
    async open(options: Parameters<typeof readStream>[1] = {}): Promise<Reader> {
      const reader = await readStream(`http://127.0.0.1:${port}/api/events`, options);
      readers.push(reader);
      return reader;
    },
    async close() {
      for (const reader of readers) reader.close();
      streams.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type StreamSite = Awaited<ReturnType<typeof serveStreams>>;
