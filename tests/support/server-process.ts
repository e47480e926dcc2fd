import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { LOG_WRITE_WAIT_MS } from "#app/lib/logger.server.ts";
import { isServerErrorLine, noteErrorLine } from "./error-logs.ts";
import { noteSecret, serverLogFile } from "./secret-ledger.ts";

/** The checkout: `node server.js` and `npm run cli` run from here. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** A secret for servers whose sessions a test signs itself (createSessionCookie). */
export const TEST_AUTH_SECRET = "integration-test-secret-that-is-long-enough-0123456789";

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Only what the process needs, so nothing of the test runner's environment (TEST_DATABASE_URL, NODE_ENV) leaks in. */
export function cleanEnv(variables: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" };
  for (const [name, value] of Object.entries(variables)) if (value !== undefined) env[name] = value;
  return env;
}

export type ProcessResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs a command to its end and collects its output. */
export function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export type ServerOptions = {
  dataDir: string;
  databaseUrl?: string;
  /** Omit to let the server keep its own secret in DATA_DIR. */
  authSecret?: string;
  env?: Record<string, string | undefined>;
  /** Node's own flags before `server.js` (the benchmark passes those of `npm start`). */
  nodeFlags?: string[];
  /** The port to listen on (a restart on the port an open page knows); a free one when omitted. */
  port?: number;
  /** Wraps the command, e.g. to pin it to a core with taskset. */
  launch?: (command: string, args: string[]) => [string, string[]];
  /** The checkout whose `server.js` and build run (the bench's `--before` runs another revision's); this one's by default. */
  root?: string;
};

const KEPT_OUTPUT_CHARS = 16 * 1024 * 1024;

/** Hands on whole lines of a stream's chunks (a line may come in several). */
function lineSplitter(onLine: (line: string) => void): { push(chunk: string): void; end(): void } {
  let rest = "";
  return {
    push(chunk) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) onLine(line);
    },
    end() {
      if (rest !== "") onLine(rest);
      rest = "";
    },
  };
}

export class ServerProcess {
  stdout = "";
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  readonly child: ChildProcess;
  readonly port: number;

  constructor(child: ChildProcess, port: number) {
    this.child = child;
    this.port = port;
    // Everything the server prints also goes to a file, checked for secrets after the whole run.
    const file = serverLogFile(port);
    const log = file ? fs.createWriteStream(file) : null;
    // A server under a benchmark's load logs a line per request: the output kept in memory is bounded.
    // Its error lines count as the test's own (tests/support/error-logs.ts): undeclared, they fail the test.
    const stdoutLines = lineSplitter((line) => {
      if (isServerErrorLine(line, "stdout")) noteErrorLine({ source: "server", text: line });
    });
    const stderrLines = lineSplitter((line) => {
      if (isServerErrorLine(line, "stderr")) noteErrorLine({ source: "server", text: `(stderr) ${line}` });
    });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (this.stdout.length < KEPT_OUTPUT_CHARS) this.stdout += chunk;
      log?.write(chunk);
      stdoutLines.push(chunk);
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (this.stderr.length < KEPT_OUTPUT_CHARS) this.stderr += chunk;
      log?.write(chunk);
      stderrLines.push(chunk);
    });
    child.on("close", () => {
      log?.end();
      stdoutLines.end();
      stderrLines.end();
    });
    this.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  url(pathname: string): string {
    return `${this.origin}${pathname}`;
  }

  /** Every `Admin setup code: …` line printed so far, the code only. */
  adminSetupCodes(): string[] {
    const codes = [...this.stdout.matchAll(/^Admin setup code: (.*)$/gm)].map((match) => match[1] ?? "");
    for (const code of codes) noteSecret(code);
    return codes;
  }

  /** The JSON log lines printed so far (the plain ones, like the setup code, left out). */
  logLines(): Record<string, unknown>[] {
    return this.stdout.split("\n").flatMap((line) => {
      if (!line.startsWith("{")) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  /**
   * The JSON log lines once everything logged until now is written: the server writes its lines asynchronously
   * (within LOG_WRITE_WAIT_MS) (app/lib/logger.server.ts). For asserting that a line is absent.
   */
  async writtenLogLines(): Promise<Record<string, unknown>[]> {
    await this.logWritten();
    return this.logLines();
  }

  /** Everything printed once what was logged until now is written (see `writtenLogLines`). */
  async writtenStdout(): Promise<string> {
    await this.logWritten();
    return this.stdout;
  }

  private async logWritten(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, LOG_WRITE_WAIT_MS + 150));
  }

  /** The first log line that matches, waiting for it to be written; undefined when none comes within the time. */
  async waitForLogLine(
    matches: (line: Record<string, unknown>) => boolean,
    timeoutMs = 3000,
  ): Promise<Record<string, unknown> | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.logLines().find(matches);
      if (line || Date.now() > deadline) return line;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Resolves once stdout contains the text; fails when the process ends first. */
  async waitForOutput(text: string | RegExp, timeoutMs = 60_000): Promise<void> {
    const found = () => (typeof text === "string" ? this.stdout.includes(text) : text.test(this.stdout));
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.exited.then(() => {
      ended = true;
    });
    while (!found()) {
      if (ended) throw new Error(`The server ended before printing ${text}:\n${this.stdout}\n${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`The server did not print ${text}:\n${this.stdout}\n${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Resolves once the server accepts connections; fails when the process ends first. */
  async waitUntilAnswering(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`The server ended:\n${this.stdout}\n${this.stderr}`);
      try {
        await request(this.url("/healthz"));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** Sends the signal and resolves with the exit code. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    const { code } = await this.exited;
    return code;
  }
}

/** Starts `node server.js` (the production build) and waits until it answers. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const launch = options.launch ?? ((command: string, args: string[]) => [command, args] as [string, string[]]);
  const [command, args] = launch(process.execPath, [...(options.nodeFlags ?? []), "server.js"]);
  const child = spawn(command, args, {
    cwd: options.root ?? ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: cleanEnv({
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: origin,
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl,
      AUTH_SECRET: options.authSecret,
      ...options.env,
    }),
  });
  const server = new ServerProcess(child, port);
  try {
    // The "running" line is logged at info level; a server started with a quieter LOG_LEVEL is polled instead.
    const level = options.env?.LOG_LEVEL;
    if (level === undefined || ["info", "debug", "trace"].includes(level))
      await server.waitForOutput("Vitrine is running on");
    else await server.waitUntilAnswering();
    const ready = await request(server.url("/api/settings"));
    if (ready.status !== 200) throw new Error(`GET /api/settings answered ${ready.status}: ${ready.body}`);
    // The admin setup code is printed right after the "running" line; let it arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } catch (error) {
    await server.stop("SIGKILL");
    throw error;
  }
  return server;
}

export type HttpResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The Set-Cookie headers. */
  cookies: string[];
};

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as it is: a Buffer byte for byte, a string as UTF-8. */
  body?: string | Buffer;
  /** The client address the server sees (any 127.x.y.z), for the per-address limits. */
  localAddress?: string;
};

/** One HTTP request on its own connection; redirects are not followed. */
export function request(url: string, options: RequestOptions = {}): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["Content-Length"] ??= String(Buffer.byteLength(options.body));
    const outgoing = http.request(
      url,
      { method: options.method ?? "GET", headers, agent: false, localAddress: options.localAddress },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            cookies: response.headers["set-cookie"] ?? [],
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/** A form post as a browser without JavaScript sends it, from the server's own origin unless told otherwise. */
export function postForm(
  server: ServerProcess,
  pathname: string,
  fields: Record<string, string>,
  options: { origin?: string | null; cookie?: string; localAddress?: string } = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (options.origin !== null) headers.Origin = options.origin ?? server.origin;
  if (options.cookie) headers.Cookie = options.cookie;
  return request(server.url(pathname), {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
    localAddress: options.localAddress,
  });
}

/** `name=value` of a Set-Cookie header, ready for a Cookie header. */
export function cookiePair(setCookie: string): string {
  return setCookie.split(";")[0] ?? "";
}

/** The session cookie a response sets, if any. */
export function sessionCookie(response: HttpResponse): string | undefined {
  const cookie = response.cookies.find((cookie) => /^vitrine\.session_token=[^;]+/.test(cookie));
  if (cookie) noteCookieSecret(cookiePair(cookie).split("=")[1]);
  return cookie;
}

/** A session cookie's value as sent, and its token alone, are both secrets. */
export function noteCookieSecret(value: string | undefined): void {
  noteSecret(value);
  noteSecret(decodeURIComponent(value ?? "").split(".")[0]);
}
