import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./server-process.ts";

const execFileAsync = promisify(execFile);

/**
 * The server binaries of whichever PostgreSQL Debian installed (the newest, if several): `.ci/run` starts the
 * cluster of whatever version is there, so the tests must not expect one. PG_BIN_DIR chooses another.
 */
export const PG_BIN_DIR = process.env.PG_BIN_DIR ?? installedPostgresBinDir();

function installedPostgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, "bin", "initdb")))
        .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    : [];
  return path.join(root, versions[0] ?? "15", "bin");
}

/** Whether this machine can run a cluster of its own (the binaries exist, and root can become `postgres`). */
export function canRunPrivatePostgres(): boolean {
  if (!fs.existsSync(path.join(PG_BIN_DIR, "initdb"))) return false;
  return process.getuid?.() !== 0 || fs.existsSync("/usr/sbin/runuser");
}

/**
 * A PostgreSQL cluster of the test's own, in a temp directory on a free port, that the test may stop, restart
 * and kill without touching the shared server. initdb refuses to run as root, so root runs it as `postgres`.
 */
export class PrivatePostgres {
  readonly dir: string;
  readonly port: number;
  private readonly owner: string | undefined;

  private constructor(dir: string, port: number, owner: string | undefined) {
    this.dir = dir;
    this.port = port;
    this.owner = owner;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return path.join(this.dir, "data");
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-pg-"));
    const owner = process.getuid?.() === 0 ? "postgres" : undefined;
    if (owner) {
      const { stdout } = await execFileAsync("id", ["-u", owner]);
      const { stdout: group } = await execFileAsync("id", ["-g", owner]);
      fs.chownSync(dir, Number(stdout.trim()), Number(group.trim()));
    }
    const cluster = new PrivatePostgres(dir, await freePort(), owner);
    await cluster.pg("initdb", ["-D", cluster.dataDir, "-A", "trust", "-U", "postgres", "--no-sync"]);
    await cluster.start();
    return cluster;
  }

  private async pg(binary: string, args: string[]): Promise<string> {
    const command = path.join(PG_BIN_DIR, binary);
    const [file, fullArgs] = this.owner ? ["runuser", ["-u", this.owner, "--", command, ...args]] : [command, args];
    const { stdout } = await execFileAsync(file, fullArgs, { timeout: 60_000 });
    return stdout;
  }

  private ctl(action: string, extra: string[] = []): Promise<string> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    return this.pg("pg_ctl", [
      action,
      "-D",
      this.dataDir,
      "-w",
      "-t",
      "60",
      "-l",
      path.join(this.dir, "log"),
      "-o",
      options,
      ...extra,
    ]);
  }

  start(): Promise<string> {
    return this.ctl("start");
  }

  stop(mode: "smart" | "fast" | "immediate" = "fast"): Promise<string> {
    return this.ctl("stop", ["-m", mode]);
  }

  restart(mode: "fast" | "immediate"): Promise<string> {
    return this.ctl("restart", ["-m", mode]);
  }

  async destroy(): Promise<void> {
    await this.stop("immediate").catch(() => {});
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
