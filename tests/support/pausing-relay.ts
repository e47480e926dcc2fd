import http from "node:http";
import type { AddressInfo } from "node:net";

export type PausingRelay = {
  /** The relay's own origin: open the page here instead of on the server. */
  origin: string;
  close(): Promise<void>;
};

/**
 * An HTTP relay to the server at `target` that sends one page the way a slow line does: everything before the first
 * `splitBefore` of its HTML, then, `pauseMs` later, the rest. The browser meanwhile has a part of the page and may
 * paint it. Every other request (scripts, styles, data, the live stream) passes through as it comes.
 */
export async function startPausingRelay(
  target: string,
  page: { path: string; splitBefore: string; pauseMs: number },
): Promise<PausingRelay> {
  const host = new URL(target).host;
  const relay = http.createServer((request, response) => {
    const paused = request.url === page.path;
    const headers = { ...request.headers, host };
    // The page is split in its text, so it must come uncompressed.
    if (paused) delete headers["accept-encoding"];
    const upstream = http.request(
      new URL(request.url ?? "/", target),
      { method: request.method, headers },
      (answer) => {
        if (!paused) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const html = Buffer.concat(chunks).toString("utf8");
          const at = html.indexOf(page.splitBefore);
          if (at < 0) {
            response
              .writeHead(500, { "content-type": "text/plain" })
              .end(`relay: ${page.path} has no ${page.splitBefore}`);
            return;
          }
          const { "content-length": _length, ...rest } = answer.headers;
          response.writeHead(answer.statusCode ?? 502, rest);
          response.write(html.slice(0, at));
          setTimeout(() => response.end(html.slice(at)), page.pauseMs);
        });
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    close: () => {
      relay.closeAllConnections();
      return new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
