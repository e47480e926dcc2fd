import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type NginxBalancer, startNginxBalancer } from "./nginx-balancer.ts";
import { S3RVER_CREDENTIALS, startS3Server, storageUrlOf, type TestS3Server } from "./s3rver-process.ts";

export { storageUrlOf };

import { noteSecret } from "./secret-ledger.ts";
import {
  freePort,
  type HttpResponse,
  type RequestOptions,
  request,
  type ServerProcess,
  startServer,
  TEST_AUTH_SECRET,
} from "./server-process.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

/*
 * Several instances of the real server as an owner runs them to outgrow one machine (issue 20): one PostgreSQL
 * database, one S3 bucket (s3rver), N `node server.js` with the same AUTH_SECRET, DATABASE_URL and STORAGE_URL,
 * each with its own DATA_DIR and port, behind a real nginx balancing round-robin on a port of its own. The tests of
 * tests/integration/several-instances.test.ts and the bench's `--instances` section are built on it.
 */

type Launch = (command: string, args: string[]) => [string, string[]];

export type InstanceClusterOptions = {
  /** How many instances (3 in the tests, 1 or 2 in the bench). */
  instances: number;
  /**
   * Start every instance at once, as an orchestrator does. Off (the default) they start one after the other, the
   * first migrating the fresh database alone: turn it on once migrations take a lock of their own, which is
   * what a test of racing starts would check.
   */
  startAtOnce?: boolean;
  /** Added to every instance's environment (PAGE_CACHE=off, AUTH_MAX_FAILED_ATTEMPTS, …). */
  env?: Record<string, string | undefined>;
  /** AUTH_SECRET of every instance; TEST_AUTH_SECRET (sessions a test signs itself) by default. */
  authSecret?: string;
  /** The PostgreSQL server the fresh database is made on; TEST_DATABASE_URL's by default. */
  postgresServerUrl?: string;
  /** Node's flags before `server.js`, and a wrapper of the commands (the bench pins servers to a core). */
  nodeFlags?: string[];
  launch?: Launch;
};

export class InstanceCluster {
  /** The process now running in each slot (a restart replaces it); a stopped slot keeps its last one. */
  readonly instances: ServerProcess[] = [];
  /** Every process a slot has had, for `answeredBy` after a restart. */
  readonly #history: ServerProcess[][] = [];

  readonly options: InstanceClusterOptions;
  readonly dir: string;
  readonly ports: number[];
  readonly publicPort: number;
  readonly database: TestDatabase;
  readonly s3: TestS3Server;

  private constructor(
    options: InstanceClusterOptions,
    dir: string,
    ports: number[],
    publicPort: number,
    database: TestDatabase,
    s3: TestS3Server,
  ) {
    this.options = options;
    this.dir = dir;
    this.ports = ports;
    this.publicPort = publicPort;
    this.database = database;
    this.s3 = s3;
  }

  nginx: NginxBalancer | undefined;

  get authSecret(): string {
    return this.options.authSecret ?? TEST_AUTH_SECRET;
  }

  /** The site's public origin: nginx's, which every instance has as BASE_URL. */
  get origin(): string {
    return `http://127.0.0.1:${this.publicPort}`;
  }

  url(pathname: string): string {
    return `${this.origin}${pathname}`;
  }

  /** A request through nginx (to whichever instance it picks). */
  viaProxy(pathname: string, options: RequestOptions = {}): Promise<HttpResponse> {
    return request(this.url(pathname), options);
  }

  dataDir(slot: number): string {
    return path.join(this.dir, `instance-${slot}`);
  }

  /** Starts everything, or stops what it had started and fails. */
  static async start(options: InstanceClusterOptions): Promise<InstanceCluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-cluster-"));
    const cleanups: (() => Promise<unknown>)[] = [async () => fs.rmSync(dir, { recursive: true, force: true })];
    try {
      // Unmigrated: the first instance to start migrates it, as on a real first start.
      const database = await createTestDatabase("postgres", { migrate: false, serverUrl: options.postgresServerUrl });
      cleanups.push(() => database.destroy());
      const s3 = await startS3Server("vitrine-cluster");
      cleanups.push(() => s3.stop());
      const ports: number[] = [];
      // Distinct ports, chosen before any listens (the instances' BASE_URL names nginx's).
      while (ports.length < options.instances + 1) {
        const port = await freePort();
        if (!ports.includes(port)) ports.push(port);
      }
      const publicPort = ports.pop() as number;
      const cluster = new InstanceCluster(options, dir, ports, publicPort, database, s3);
      cleanups.push(() => cluster.#stopEverything());
      if (options.authSecret) noteSecret(options.authSecret);
      const slots = ports.map((_, slot) => slot);
      if (options.startAtOnce) await Promise.all(slots.map((slot) => cluster.start(slot)));
      else for (const slot of slots) await cluster.start(slot);
      fs.mkdirSync(path.join(dir, "nginx"));
      cluster.nginx = await startNginxBalancer({
        dir: path.join(dir, "nginx"),
        upstreams: ports,
        port: publicPort,
        launch: options.launch,
      });
      return cluster;
    } catch (error) {
      await runAll(cleanups.reverse());
      throw error;
    }
  }

  /** The environment of an instance: the same database, bucket and secret for all; its own folder and port. */
  #envOf(slot: number): Record<string, string | undefined> {
    return {
      BASE_URL: this.origin,
      // One proxy in front, whose X-Forwarded-For entry is the client's address (as docs/DEPLOY.md sets it up).
      TRUST_PROXY: "1",
      STORAGE_URL: storageUrlOf(this.s3),
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      ...this.options.env,
      PORT: String(this.ports[slot]),
      DATA_DIR: this.dataDir(slot),
    };
  }

  /** Starts the slot's instance on its port and folder; resolves once it answers. */
  async start(slot: number): Promise<ServerProcess> {
    const current = this.instances[slot];
    if (current && current.child.exitCode === null && current.child.signalCode === null) {
      throw new Error(`Instance ${slot} is still running`);
    }
    fs.mkdirSync(this.dataDir(slot), { recursive: true });
    const server = await startServer({
      dataDir: this.dataDir(slot),
      databaseUrl: this.database.location.databaseUrl,
      authSecret: this.authSecret,
      port: this.ports[slot],
      env: this.#envOf(slot),
      nodeFlags: this.options.nodeFlags,
      launch: this.options.launch,
    });
    this.instances[slot] = server;
    this.#history[slot] = [...(this.#history[slot] ?? []), server];
    return server;
  }

  /** Stops the slot's instance as systemd or an orchestrator does (SIGTERM); resolves with its exit code. */
  stop(slot: number): Promise<number | null> {
    return this.#current(slot).stop("SIGTERM");
  }

  /** Ends the slot's instance at once (`kill -9`): nothing it had in hand is finished. */
  async kill(slot: number): Promise<void> {
    await this.#current(slot).stop("SIGKILL");
  }

  /** SIGTERM, then a start on the same port and folder: one step of a rolling restart. */
  async restart(slot: number): Promise<{ exitCode: number | null; server: ServerProcess }> {
    const exitCode = await this.stop(slot);
    return { exitCode, server: await this.start(slot) };
  }

  #current(slot: number): ServerProcess {
    const server = this.instances[slot];
    if (!server) throw new Error(`No instance ${slot}`);
    return server;
  }

  /**
   * Which slot answered a request that came through nginx: the instance that logged the request id nginx gave it
   * (`X-Request-Id`, trusted behind TRUST_PROXY and answered back). The server sets no header naming itself, and
   * none is added for the tests: its log line is what an operator would look at too.
   */
  async answeredBy(response: HttpResponse, timeoutMs = 3000): Promise<number> {
    const id = response.headers["x-request-id"];
    if (typeof id !== "string") throw new Error("The answer has no X-Request-Id");
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const slot = this.#history.findIndex((servers) =>
        servers.some((server) => server.logLines().some((line) => line.reqId === id)),
      );
      if (slot >= 0) return slot;
      if (Date.now() > deadline) throw new Error(`No instance logged the request ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Stops nginx and every instance (a stop that does not finish within 10 s is a kill). */
  async #stopEverything(): Promise<void> {
    await runAll([
      async () => this.nginx?.stop(),
      ...this.instances.map((server) => async () => {
        const killer = setTimeout(() => server.child.kill("SIGKILL"), 10_000);
        await server.stop("SIGTERM");
        clearTimeout(killer);
      }),
    ]);
  }

  /** Stops everything and removes the database, the bucket's folder and the temp folders, whatever fails. */
  async teardown(): Promise<void> {
    await runAll([
      () => this.#stopEverything(),
      () => this.s3.stop(),
      () => this.database.destroy(),
      async () => fs.rmSync(this.dir, { recursive: true, force: true }),
    ]);
  }
}

/** Runs every step even when one fails; throws the first failure afterwards. */
async function runAll(steps: (() => Promise<unknown>)[]): Promise<void> {
  let failure: unknown;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

export const startInstanceCluster = (options: InstanceClusterOptions) => InstanceCluster.start(options);
