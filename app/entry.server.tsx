import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, RouterContextProvider, ServerRouter } from "react-router";
import { isDatabaseUnreachable } from "#app/db/database.server.ts";
import { databaseUnreachableContext } from "#app/lib/request-context.ts";

export const streamTimeout = 5_000;

/**
 * The browser enforces what the site promises: scripts only from this site (inline ones only with this
 * response's nonce), no request to another host except the privacy-enhanced video embeds a visitor starts.
 * Development leaves it off: Vite's hot reload injects scripts and a websocket of its own.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src https://www.youtube-nocookie.com https://player.vimeo.com",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * Logs what a loader, action or render threw (as React Router would). A database that cannot be reached is
 * one line, not a stack per request, and marks the request so that server/app.ts answers it with 503.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isDatabaseUnreachable(error)) {
    if (context instanceof RouterContextProvider) context.set(databaseUnreachableContext, true);
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`Database unreachable (${request.method} ${new URL(request.url).pathname}): ${reason}`);
    return;
  }
  // A route error response from a thrown Error carries it (React Router's own handler logs that one).
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(inner ?? error);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = randomBytes(16).toString("base64");
  if (process.env.NODE_ENV === "production") {
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole document at once, so share cards and search engines see everything.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell are logged by React Router; these happen while streaming.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
