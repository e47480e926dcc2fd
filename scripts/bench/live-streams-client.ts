// The live-streams bench's client (scripts/bench/live-streams.ts starts it): a process of its own, pinned to the
// load generator's core, that holds the visitors' event streams (GET /api/events) and sends the admin's saves, so
// that a save's time and every stream's arrival are read on one clock and none of it runs on the server's core.
// Driven over the IPC channel, one command at a time; plain Node (type stripping), node: modules only, so that
// it starts quickly and its own memory stays small.
import http from "node:http";

export type ClientCommand =
  | { type: "open"; url: string; count: number; timeoutMs: number }
  | { type: "save"; url: string; headers: Record<string, string>; body: string }
  | { type: "await"; key: string; sentAt: number; timeoutMs: number }
  | { type: "close" };

export type ClientReply =
  | { type: "opened"; open: number; refused: string[]; ms: number }
  | { type: "saved"; status: number; sentAt: number; answeredMs: number }
  | { type: "arrived"; delaysMs: number[]; missing: number }
  | { type: "closed"; dropped: number }
  | { type: "failed"; message: string };

/** One stream as the client keeps it: when each event (by `area:id`) first arrived on it. */
type Held = {
  request: http.ClientRequest;
  arrivals: Map<string, number>;
  pending: string;
  /** Its `ready` message came: it counts as open from then on. */
  ready: boolean;
  ended: boolean;
};

const held: Held[] = [];
/** Streams the server closed on its own (a drop, a goodbye) while the bench still held them. */
let dropped = 0;
let closing = false;
/** Waiters for an event to reach every open stream, checked on each arrival. */
const waiters = new Set<() => void>();

function readMessages(stream: Held, chunk: string, at: number, onReady: () => void) {
  stream.pending += chunk;
  let end = stream.pending.indexOf("\n\n");
  while (end >= 0) {
    const block = stream.pending.slice(0, end);
    stream.pending = stream.pending.slice(end + 2);
    end = stream.pending.indexOf("\n\n");
    const event = block.match(/^event: (.*)$/m)?.[1];
    const data = block.match(/^data: (.*)$/m)?.[1];
    if (event === "ready") onReady();
    if (event !== "change" || data === undefined) continue;
    const { events } = JSON.parse(data) as { events: { area: string; id: string | null }[] };
    for (const change of events) {
      const key = `${change.area}:${change.id}`;
      if (!stream.arrivals.has(key)) stream.arrivals.set(key, at);
    }
    for (const waiter of waiters) waiter();
  }
}

/** Opens one stream; resolves once its `ready` message came, or with the reason it was refused. */
function openOne(url: string, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const stream: Held = {
      request: undefined as unknown as http.ClientRequest,
      arrivals: new Map(),
      pending: "",
      ready: false,
      ended: false,
    };
    let settled = false;
    const settle = (reason: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reason !== null) stream.request.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => settle(`no ready message within ${timeoutMs} ms`), timeoutMs);
    stream.request = http.get(url, { agent: false, headers: { Accept: "text/event-stream" } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        settle(`status ${response.statusCode}`);
        return;
      }
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        // Read first: the time is the arrival's, not that of the parsing of the streams before it.
        const at = performance.now();
        readMessages(stream, chunk, at, () => {
          stream.ready = true;
          held.push(stream);
          settle(null);
        });
      });
      response.on("close", () => {
        stream.ended = true;
        if (stream.ready && !closing) dropped++;
        for (const waiter of waiters) waiter();
      });
    });
    stream.request.on("error", (error) => settle(error.message));
  });
}

async function open(url: string, count: number, timeoutMs: number): Promise<ClientReply> {
  const started = performance.now();
  const refused: string[] = [];
  // A hundred at a time: as a crowd of visitors arrives, without one burst of a thousand connects.
  const queue = Array.from({ length: count }, (_, index) => index);
  const worker = async () => {
    while (queue.shift() !== undefined) {
      const reason = await openOne(url, timeoutMs);
      if (reason !== null) refused.push(reason);
    }
  };
  await Promise.all(Array.from({ length: Math.min(100, count) }, worker));
  return {
    type: "opened",
    open: held.filter((stream) => !stream.ended).length,
    refused,
    ms: performance.now() - started,
  };
}

/** One admin form post; its time is taken just before the request is written. */
function save(url: string, headers: Record<string, string>, body: string): Promise<ClientReply> {
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    const outgoing = http.request(
      url,
      { method: "POST", agent: false, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) } },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ type: "saved", status: response.statusCode ?? 0, sentAt, answeredMs: performance.now() - sentAt }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Waits until the event reached every open stream (or the time is up); each stream's delay since `sentAt`. */
function arrivals(key: string, sentAt: number, timeoutMs: number): Promise<ClientReply> {
  return new Promise((resolve) => {
    const done = () => {
      waiters.delete(check);
      clearTimeout(timer);
      const delaysMs: number[] = [];
      let missing = 0;
      for (const stream of held) {
        const at = stream.arrivals.get(key);
        if (at === undefined) missing++;
        else delaysMs.push(at - sentAt);
      }
      resolve({ type: "arrived", delaysMs, missing });
    };
    const check = () => {
      if (held.every((stream) => stream.ended || stream.arrivals.has(key))) done();
    };
    const timer = setTimeout(done, timeoutMs);
    waiters.add(check);
    check();
  });
}

async function close(): Promise<ClientReply> {
  closing = true;
  const ends = held.map(
    (stream) => new Promise<void>((resolve) => (stream.ended ? resolve() : stream.request.on("close", resolve))),
  );
  for (const stream of held) stream.request.destroy();
  await Promise.all(ends);
  held.length = 0;
  const reply: ClientReply = { type: "closed", dropped };
  dropped = 0;
  closing = false;
  return reply;
}

async function handle(command: ClientCommand): Promise<ClientReply> {
  switch (command.type) {
    case "open":
      return open(command.url, command.count, command.timeoutMs);
    case "save":
      return save(command.url, command.headers, command.body);
    case "await":
      return arrivals(command.key, command.sentAt, command.timeoutMs);
    case "close":
      return close();
  }
}

process.on("message", (command: ClientCommand) => {
  handle(command).then(
    (reply) => process.send?.(reply),
    (error: Error) => process.send?.({ type: "failed", message: error.message } satisfies ClientReply),
  );
});
// The bench gone, nothing is left to hold the streams for.
process.on("disconnect", () => process.exit(0));
