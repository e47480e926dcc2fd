import fs from "node:fs";
import path from "node:path";

/*
 * What every nginx a test or the bench starts has in common: a folder of its own for its pid, log and temp files
 * (so it needs neither the system config nor root-owned folders), one worker, no access log. Each caller adds its
 * own `http` directives (servers, upstreams, caches).
 */

const TEMP_FOLDERS = ["body", "proxy", "fastcgi", "uwsgi", "scgi"] as const;

/** Makes nginx's temp folders in `dir`; `mode` lets its worker (nobody, when started as root) into them. */
export function prepareNginxFolder(dir: string, mode = 0o755): void {
  for (const name of TEMP_FOLDERS) fs.mkdirSync(path.join(dir, name), { recursive: true });
  fs.chmodSync(dir, mode);
}

/** A whole nginx.conf: the shared main and `http` settings around `http`, the caller's directives. */
export function nginxConfig(dir: string, options: { workerConnections: number; http: string }): string {
  const temp = TEMP_FOLDERS.map((name) => `  ${name === "body" ? "client_body" : name}_temp_path ${dir}/${name};`);
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${options.workerConnections}; }
http {
  access_log off;
${temp.join("\n")}
${options.http}
}
`;
}

/** nginx's arguments for a config written by `nginxConfig` into `dir`: in the foreground, its log in `dir`. */
export function nginxArgs(dir: string): string[] {
  return ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log"), "-g", "daemon off;"];
}
