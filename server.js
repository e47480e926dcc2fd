// The one process that serves Vitrine: pages, API and static files.
// `node server.js` runs the production build (building first when it is missing or stale);
// `node server.js --dev` runs Vite in middleware mode with hot reload.
// First, before anything else is even loaded: on a Node.js older than 24 it prints one line and exits (the SQLite
// driver would otherwise end the process with a bare "Segmentation fault"). Imports are evaluated in order, and
// everything beyond Node's own modules is imported dynamically below, once the check has passed.
import "./scripts/check-node.cjs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");
/** How long a connection must stay quiet during a stop before it is closed (see stop). */
const QUIET_MS = 1000;
process.env.NODE_ENV ??= dev ? "development" : "production";

async function main() {
  const { default: express } = await import("express");
  const { default: compression } = await import("compression");
  const server = express();
  server.disable("x-powered-by");
  let stopping = false;

  let appModule;
  if (dev) {
    const vite = await import("vite");
    const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
    server.use(compression());
    server.use(viteDevServer.middlewares);
    appModule = await viteDevServer.ssrLoadModule("./server/app.ts");
    server.use(async (req, res, next) => {
      try {
        const fresh = await viteDevServer.ssrLoadModule("./server/app.ts");
        fresh.app(req, res, next);
      } catch (error) {
        if (error instanceof Error) viteDevServer.ssrFixStacktrace(error);
        next(error);
      }
    });
  } else {
    const { buildIfStale } = await import("./scripts/build-if-stale.js");
    appModule = await import(buildIfStale());
    server.use(appModule.securityHeaders);
    server.use(compression());
    server.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
    const publicFiles = express.static(path.join(root, "build/client"), { maxAge: "1h", index: false });
    // Only an address that names a file (favicon.svg, og-image.png) is looked up on disk, not every page.
    server.use((req, res, next) => (/\.\w+$/.test(req.path) ? publicFiles(req, res, next) : next()));
    server.use(appModule.app);
  }

  // The one logger of the process (JSON lines on stdout, readable ones on a terminal), at LOG_LEVEL.
  logger = appModule.createServerLogger(process.env);

  let started;
  try {
    started = await appModule.startup(process.env);
  } catch (error) {
    if (error?.name === "EnvError") {
      // One plain line for the person starting the server; the message never shows a secret's value.
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { env, adminSetupCode } = started;

  server.use((error, req, res, _next) => {
    // The request's own line follows (status 500) with the same id; the stack is logged here, once.
    logger.error({ err: error, reqId: req.id }, "Unhandled request error");
    if (!res.headersSent) res.status(500).type("text/plain").send("Internal server error");
  });

  // Answers not yet sent, and open connections: a stop closes each one cleanly (see stop below).
  const inFlight = new Set();
  const connections = new Map();
  // Pages kept for anonymous visitors are sent before Express routes anything (see server/page-cache.ts);
  // every request gets its id and log line first, whoever answers it.
  const httpServer = http.createServer((req, res) => {
    appModule.logRequest(req, res);
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    // While stopping, a connection is closed after its answer so that the client does not send another on it.
    if (stopping) res.setHeader("Connection", "close");
    if (appModule.serveKeptPage?.(req, res)) return;
    server(req, res);
  });
  httpServer.on("connection", (socket) => {
    connections.set(socket, { bytesRead: -1, quietSince: 0 });
    socket.once("close", () => connections.delete(socket));
  });
  httpServer.listen(env.port, env.host, () => {
    const address = httpServer.address();
    const port = typeof address === "object" && address ? address.port : env.port;
    logger.info(
      { port, mode: dev ? "development" : "production" },
      `Vitrine is running on http://${env.host ?? "localhost"}:${port} (${dev ? "development" : "production"})`,
    );
    // A plain line on purpose (see README): the person installing the site copies the code from it. Written once
    // the log lines before it are written, so that the address and then the code are the last lines of the start.
    if (adminSetupCode)
      appModule.whenLogWritten(logger, () => process.stdout.write(`Admin setup code: ${adminSetupCode}\n`));
  });
  httpServer.on("error", (error) => {
    logger.fatal(`Could not listen on port ${env.port}: ${error.message}`);
    process.exit(1);
  });

  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing requests in flight, then stopping.`);
    const force = setTimeout(() => {
      logger.error("Requests did not finish within 10 s; stopping anyway.");
      process.exit(1);
    }, 10_000);
    force.unref();
    // Live streams never end by themselves: each is told goodbye (its browser reconnects elsewhere or later).
    appModule.closeEventStreams?.();
    // Answers still to be written say "Connection: close"; new ones do so from the start (above).
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    // Stop accepting, and exit once every connection has closed. Not http.Server#close(): it also drops at once
    // every connection between two requests, and a request the client had already sent on one (promised
    // keep-alive by the answer before) was then reset. net.Server's close only stops listening.
    net.Server.prototype.close.call(httpServer, async () => {
      await appModule.shutdown().catch((error) => logger.error({ err: error }, "Closing the database failed"));
      process.exit(0);
    });
    // A connection is closed once it has been quiet for QUIET_MS: no answer in progress and nothing read across
    // sweeps (so the socket was read in between, however busy the process). A client that got a keep-alive answer
    // just before the stop may still send its next request on that connection; it is answered, not cut off.
    const closeQuietConnections = () => {
      const busy = new Set([...inFlight].map((res) => res.socket));
      const now = performance.now();
      for (const [socket, seen] of connections) {
        if (busy.has(socket) || socket.bytesRead !== seen.bytesRead) {
          seen.bytesRead = socket.bytesRead;
          seen.quietSince = now;
        } else if (now - seen.quietSince >= QUIET_MS) {
          socket.destroy();
        }
      }
    };
    closeQuietConnections();
    setInterval(closeQuietConnections, 100).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** Set by main() once the app module is loaded; until then (a failed build or import) plain stderr serves. */
let logger;

process.on("unhandledRejection", (reason) => {
  if (logger) logger.error({ err: reason }, "Unhandled promise rejection");
  else process.stderr.write(`Unhandled promise rejection: ${reason?.stack ?? reason}\n`);
});

main().catch((error) => {
  if (logger) logger.fatal({ err: error }, "Vitrine could not start");
  else process.stderr.write(`Vitrine could not start: ${error?.stack ?? error}\n`);
  process.exit(1);
});
