import { createHash, randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, RouterContextProvider, ServerRouter } from "react-router";
import { isDatabaseUnreachable } from "#app/db/database.server.ts";
import { getLogger } from "#app/lib/logger.server.ts";
import { THEME_SCRIPT } from "#app/lib/preferences.ts";
import { databaseUnreachableContext, requestIdContext } from "#app/lib/request-context.ts";

export const streamTimeout = 5_000;

/**
 * SHA-256 of the style sheet sonner 2.0.8 puts in a <style> element of its own (it takes no nonce). A test
 * (entry.server.test.ts) recomputes it from the installed package, so an upgrade that changes it fails there.
 */
export const TOAST_STYLE_HASH = "'sha256-StEaX+se6YS7pqjzrzMIA0KaX9zF/8zAhvQXZAe5epY='";
/**
 * SHA-256 of nothing: sonner adds its <style> element empty, then its text. The browser checks the element again
 * whenever its text changes, so allowing the empty one allows no style at all.
 */
export const EMPTY_STYLE_HASH = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";

/**
 * SHA-256 of the head's script that follows a visitor's light system (root.tsx): rendered without a nonce, so the
 * same bytes serve every visitor, and allowed by this hash alone.
 */
export const THEME_SCRIPT_HASH = `'sha256-${createHash("sha256").update(THEME_SCRIPT, "utf8").digest("base64")}'`;

/**
 * The browser enforces what the site promises: scripts only from this site (inline ones only with this
 * response's nonce), no request to another host except the privacy-enhanced video embeds a visitor starts.
 * Development leaves it off: Vite's hot reload injects scripts and a websocket of its own.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' ${THEME_SCRIPT_HASH}`,
    // Style sheets only from this site, and the one <style> element the toast library (sonner) adds, by its hash:
    // injected markup can bring no style sheet. Style attributes stay allowed: React renders `style={}` as one
    // (a picture's blurred placeholder, the lightbox's size), and an attribute cannot load or run anything.
    "style-src 'self'",
    `style-src-elem 'self' ${TOAST_STYLE_HASH} ${EMPTY_STYLE_HASH}`,
    "style-src-attr 'unsafe-inline'",
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

/** The id of the request being answered, for its error lines (empty when React Router has no context yet). */
function requestIdOf(context: Readonly<RouterContextProvider> | undefined): string | undefined {
  try {
    return context?.get(requestIdContext) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What React Router reports while answering. A database that cannot be reached is one line, not a stack per
 * request, and marks the request so that server/app.ts answers it with 503. A refusal (4xx: a POST to a page
 * without an action, a GET of a write-only address, a non-admin's 403) is the client's mistake, not the
 * server's: the request's own log line already says so, and no stack is logged. A request the visitor
 * abandoned is not logged either.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isDatabaseUnreachable(error)) {
    if (context instanceof RouterContextProvider) context.set(databaseUnreachableContext, true);
    const reason = error instanceof Error ? error.message : String(error);
    getLogger().warn(
      { reqId: requestIdOf(context), method: request.method, path: new URL(request.url).pathname, reason },
      "Database unreachable",
    );
    return;
  }
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // A route error response from a thrown Error carries it.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  getLogger().error({ err: inner ?? error, reqId: requestIdOf(context) }, "Error while answering a request");
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext?: RouterContextProvider,
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
          if (shellRendered)
            getLogger().error({ err: error, reqId: requestIdOf(loadContext) }, "Error while streaming a page");
        },
      },
    );
  });
}
