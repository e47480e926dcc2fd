import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { nginxArgs, nginxConfig, prepareNginxFolder } from "./nginx-config.ts";
import { freePort, request } from "./server-process.ts";

/** Debian's nginx (nginx-light): the tests and the bench start their own, with a config of their own. */
export const NGINX = "/usr/sbin/nginx";
export const hasNginx = fs.existsSync(NGINX);

export type NginxBalancer = {
  port: number;
  origin: string;
  child: ChildProcess;
  /** nginx's error log so far (a refused upstream is logged there at `error`, which is the point of a retry). */
  errorLog(): string;
  /** Stops nginx (SIGQUIT: lets requests in flight finish) and waits for it; SIGKILL after 5 s. */
  stop(): Promise<void>;
};

export type NginxBalancerOptions = {
  /** A private folder for the config, pid file, logs and temp files (nginx's prefix). */
  dir: string;
  /** The instances' ports on 127.0.0.1, balanced round-robin. */
  upstreams: number[];
  /** Listen here (a port chosen before the instances, whose BASE_URL names it); a free one when omitted. */
  port?: number;
  /** Wraps the command, e.g. to pin it to a core with taskset (the bench). */
  launch?: (command: string, args: string[]) => [string, string[]];
};

/**
 * The config of a balancer in front of several instances, as docs/DEPLOY.md's single-instance one plus what
 * several need:
 * - `proxy_next_upstream`: a request that meets an instance which refuses the connection (stopped, restarting),
 *   drops it, or answers 502/503/504 goes to the next one. nginx retries only requests it may (GET, HEAD, or any
 *   not yet sent), so a stop must never lose a POST already in flight: server.js answers those before it exits.
 * - `max_fails=1 fail_timeout=2s`: an instance that failed once is left out for 2 s (a restart takes longer), so
 *   not every request pays the refused connection first.
 * - `keepalive` with HTTP/1.1 and an empty Connection header: connections to the instances are reused, as a
 *   production proxy does; a stopping instance answers "Connection: close" and closes quiet ones (server.js),
 *   and a request nginx had just put on such a connection is retried like any refused one.
 * - The live stream (`GET /api/events`) needs nothing more: the server's `X-Accel-Buffering: no` turns buffering
 *   off for it and its comment every 25 s stays within `proxy_read_timeout` (README, "Live updates"); each open
 *   stream holds one connection, hence `worker_connections` well above the tests' count.
 */
export function balancerConfig(options: { dir: string; port: number; upstreams: number[] }): string {
  const { dir, port, upstreams } = options;
  const servers = upstreams.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=2s;`);
  return nginxConfig(dir, {
    workerConnections: 4096,
    http: `  upstream vitrine {
${servers.join("\n")}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 1100m;
    proxy_request_buffering off;
    location / {
      proxy_pass http://vitrine;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout http_502 http_503 http_504;
      proxy_next_upstream_tries ${upstreams.length};
    }
  }`,
  });
}

/** Starts nginx balancing over the upstreams and resolves once it answers (whatever the instances say). */
export async function startNginxBalancer(options: NginxBalancerOptions): Promise<NginxBalancer> {
  const { dir } = options;
  const port = options.port ?? (await freePort());
  // Started as root, nginx's worker runs as nobody: it must be able to enter its temp folders.
  prepareNginxFolder(dir);
  const config = path.join(dir, "nginx.conf");
  fs.writeFileSync(config, balancerConfig({ dir, port, upstreams: options.upstreams }));
  const launch = options.launch ?? ((command: string, args: string[]) => [command, args] as [string, string[]]);
  const [command, args] = launch(NGINX, nginxArgs(dir));
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const errorLog = () => fs.readFileSync(path.join(dir, "error.log"), { encoding: "utf8", flag: "a+" });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGQUIT");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      // Any answer will do (502 while no instance runs): nginx listens.
      await request(`${origin}/healthz`);
      return { port, origin, child, errorLog, stop };
    } catch (error) {
      if (child.exitCode !== null || tries > 200) {
        await stop();
        throw new Error(`nginx did not start: ${stderr}${errorLog()}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
