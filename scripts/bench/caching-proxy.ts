import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { nginxArgs, nginxConfig, prepareNginxFolder } from "#tests/support/nginx-config.ts";
import { freePort, request } from "#tests/support/server-process.ts";
import { pinned } from "./processes.ts";

export type CachingProxy = {
  /** The proxy's address in front of each upstream, by name. */
  origins: Record<string, string>;
  stop(): Promise<void>;
};

/**
 * nginx as a CDN's stand-in: one caching proxy (proxy_cache, as the upstream's Cache-Control allows) in front of
 * each upstream port, each with a cache of its own, every answer saying in `X-Cache-Status` whether it came from the
 * cache (HIT) or from the upstream. One worker, pinned to the visitor's core, every path inside `dir`.
 */
export async function startCachingProxy(dir: string, upstreams: Record<string, number>): Promise<CachingProxy> {
  fs.mkdirSync(dir, { recursive: true });
  const origins: Record<string, string> = {};
  const servers: string[] = [];
  const caches: string[] = [];
  for (const [name, upstream] of Object.entries(upstreams)) {
    const port = await freePort();
    origins[name] = `http://127.0.0.1:${port}`;
    caches.push(`  proxy_cache_path ${dir}/cache-${name} keys_zone=${name}:10m;`);
    servers.push(`  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${upstream};
      proxy_cache ${name};
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }`);
  }
  // Started as root, nginx's worker runs as nobody: it must be able to write its caches and temp files (and the
  // folders above `dir` must let it through).
  prepareNginxFolder(dir, 0o777);
  for (const entry of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, entry), 0o777);
  const config = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    config,
    nginxConfig(dir, { workerConnections: 1024, http: `${caches.join("\n")}\n${servers.join("\n")}` }),
  );
  const [command, args] = pinned("load", "nginx", nginxArgs(dir));
  const child: ChildProcess = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  const deadline = Date.now() + 10_000;
  for (const origin of Object.values(origins)) {
    for (;;) {
      try {
        await request(`${origin}/healthz`);
        break;
      } catch (error) {
        if (child.exitCode !== null || Date.now() > deadline) {
          await stop();
          const log = fs.readFileSync(path.join(dir, "error.log"), { encoding: "utf8", flag: "a+" });
          throw new Error(`nginx did not start: ${(error as Error).message}\n${log}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
  return { origins, stop };
}
