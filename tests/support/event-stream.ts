import http from "node:http";

/** One message of a live stream as the test reads it. */
export type StreamMessage = { event: string; id: string | undefined; data: unknown };

/**
 * A live stream (GET /api/events) read the way a browser does, message by message, for the integration tests: the
 * messages so far, a wait for one, and the close. `status` and `headers` are those of the answer.
 */
export type OpenStream = {
  status: number;
  headers: http.IncomingHttpHeaders;
  messages: StreamMessage[];
  /** Raw text received (heartbeats included). */
  text: () => string;
  ended: Promise<void>;
  waitFor: (match: (message: StreamMessage) => boolean, timeoutMs?: number) => Promise<StreamMessage>;
  close: () => void;
};

export function openEventStream(
  url: string,
  options: { cookie?: string; lastEventId?: string; localAddress?: string } = {},
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (options.cookie) headers.Cookie = options.cookie;
    if (options.lastEventId !== undefined) headers["Last-Event-ID"] = options.lastEventId;
    const outgoing = http.get(url, { headers, agent: false, localAddress: options.localAddress }, (response) => {
      const messages: StreamMessage[] = [];
      const waiters = new Set<() => void>();
      let raw = "";
      let pending = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        raw += chunk;
        pending += chunk;
        let end = pending.indexOf("\n\n");
        while (end >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          end = pending.indexOf("\n\n");
          let event = "message";
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const [field, ...rest] = line.split(":");
            const value = rest.join(":").replace(/^ /, "");
            if (field === "event") event = value;
            else if (field === "id") id = value;
            else if (field === "data") data.push(value);
          }
          if (data.length === 0) continue;
          messages.push({ event, id, data: JSON.parse(data.join("\n")) });
          for (const waiter of waiters) waiter();
        }
      });
      const ended = new Promise<void>((done) => {
        response.on("close", () => {
          for (const waiter of waiters) waiter();
          done();
        });
      });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        text: () => raw,
        ended,
        waitFor(match, timeoutMs = 3000) {
          return new Promise((found, fail) => {
            const check = () => {
              const message = messages.find(match);
              if (message) {
                waiters.delete(check);
                clearTimeout(timer);
                found(message);
              } else if (response.closed) {
                waiters.delete(check);
                clearTimeout(timer);
                fail(new Error(`The stream ended without the message; it had: ${JSON.stringify(messages)}`));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`No such message within ${timeoutMs} ms; the stream had: ${JSON.stringify(messages)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close: () => outgoing.destroy(),
      });
    });
    outgoing.on("error", reject);
  });
}

/** The events of every `change` message so far, in order. */
export function changesIn(stream: OpenStream): { seq: number; area: string; action: string; id: string | null }[] {
  return stream.messages
    .filter((message) => message.event === "change")
    .flatMap(
      (message) =>
        (message.data as { events: { seq: number; area: string; action: string; id: string | null }[] }).events,
    );
}
