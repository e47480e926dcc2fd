import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import { CLIENT_ADDRESS_HEADER } from "#app/lib/client-address.ts";
import type { RenderedPage } from "./page-cache.ts";

/**
 * Between Express and React Router's fetch-style handler. `@react-router/express` does the same, but sends
 * every answer as a stream; the page cache needs the answer in hand first, so the two halves are ours.
 */

/**
 * The origin the request was made to. Express resolves the protocol (behind TRUST_PROXY hops, from
 * X-Forwarded-Proto), but the Host a proxy passes on is often its upstream's (`127.0.0.1:3000`): behind a proxy
 * the public origin is BASE_URL's, unless the browser's Origin names the host it reached. React Router refuses
 * a form post whose Origin differs from this URL's, so a wrong one here refused every sign-in behind nginx.
 */
export function requestOrigin(req: express.Request, publicOrigin: string | null): string {
  const own = `${req.protocol}://${req.get("host") ?? "localhost"}`;
  if (publicOrigin === null || req.headers.origin === own) return own;
  return publicOrigin;
}

export function toFetchRequest(req: express.Request, res: express.Response, publicOrigin: string | null): Request {
  const url = new URL(`${requestOrigin(req, publicOrigin)}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === CLIENT_ADDRESS_HEADER) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  // The client's address as Express resolved it (see client-address.ts); one a client sent itself was dropped above.
  const address = req.ip ?? req.socket.remoteAddress;
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  const controller = new AbortController();
  // A visitor who goes away before the answer is complete aborts the render.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

function writeHead(res: express.Response, status: number, statusText: string, headers: Headers) {
  res.statusMessage = statusText;
  res.status(status);
  for (const [name, value] of headers) res.append(name, value);
}

/** Streams React Router's answer (pages for signed-in visitors, resource routes, uploads' answers). */
export async function sendFetchResponse(res: express.Response, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  writeHead(res, response.status, response.statusText, response.headers);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}

/** Sends an answer read in full that the page cache did not keep (a 404, a page setting a cookie). */
export function sendRenderedPage(res: express.Response, page: RenderedPage): void {
  if (res.destroyed || res.writableEnded) return;
  writeHead(res, page.status, "", page.headers);
  res.end(page.body);
}
