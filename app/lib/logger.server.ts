import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";

import { LOG_LEVELS } from "./env.server.ts";

export type { Logger };
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Field names whose values never reach a log line, at the top or in a request's headers, a body or a form:
 * the code logs none of them on purpose, this is the net under a mistake. Named paths, not `*.password`
 * wildcards: those cost about 20 µs on every line, a quarter of a kept page's whole answer.
 */
const SECRET_FIELDS = ["password", "token", "cookie", "authorization", "secret", "inviteCode", "sig"];
const SECRET_PATHS = ["", "headers.", "req.headers.", "body.", "form."].flatMap((parent) =>
  SECRET_FIELDS.map((field) => `${parent}${field}`),
);

/** Lines are written asynchronously: tests that assert a line is absent wait this long for what was logged. */
export const LOG_WRITE_WAIT_MS = 200;

export type LoggerOptions = {
  level?: LogLevel;
  /** Human-readable lines instead of JSON (default: when stdout is a terminal). */
  pretty?: boolean;
  /** Where lines go (default stdout); tests pass a stream to read them. */
  destination?: DestinationStream;
};

/** One JSON line per event on stdout, or readable lines when a person watches the terminal. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? "info";
  const readable = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  const config = {
    level,
    base: undefined,
    redact: {
      paths: SECRET_PATHS,
      censor: "[redacted]",
    },
  };
  // pino-pretty as a stream in this thread (not a worker transport): a terminal is watched by one person.
  // JSON lines are written without blocking the request that logged them (under load several lines go out
  // in one write); pino flushes what is left when the process exits. Gathering lines into 4 KiB writes was
  // measured (scripts/measure-request-cpu.ts, LOG_LEVEL=info against warn) and saved no CPU per request.
  const destination =
    options.destination ??
    (readable
      ? pretty({ colorize: true, sync: true, singleLine: true, translateTime: "SYS:HH:MM:ss.l" })
      : pino.destination({ dest: 1, sync: false }));
  return pino(config, destination);
}

/**
 * Calls back once every line logged so far has been written. Not pino's `flush`: with the non-blocking stdout
 * destination above it calls back at once, while a line may still be on its way, so a plain line written to
 * stdout after it (the admin setup code) came out before the "running" line.
 */
export function whenLogWritten(logger: Logger, callback: () => void): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { _writing?: boolean; once?: (event: "drain", listener: () => void) => void }
    | undefined;
  if (stream?._writing !== true || typeof stream.once !== "function") {
    callback();
    return;
  }
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    callback();
  };
  stream.once("drain", once);
  // A write that fails emits no "drain": the line after it still comes.
  setTimeout(once, 1000).unref();
}

/** The LOG_LEVEL of an environment, before (and whatever) the full validation says; that reports a bad one. */
export function logLevelFrom(source: Record<string, string | undefined>): LogLevel {
  const wanted = source.LOG_LEVEL?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(wanted ?? "") ? (wanted as LogLevel) : "info";
}

// Kept on globalThis: set once by the server's start (server.js), read by modules loaded through Vite in development.
const holder = globalThis as typeof globalThis & { __vitrineLogger?: Logger };

/** Makes this the process's logger; called once where the process is put together (server start). */
export function setLogger(logger: Logger): void {
  holder.__vitrineLogger = logger;
}

/** The process's logger: the server's, or (in scripts and tests that never start a server) a plain one. */
export function getLogger(): Logger {
  holder.__vitrineLogger ??= createLogger({ level: logLevelFrom(process.env) });
  return holder.__vitrineLogger;
}
