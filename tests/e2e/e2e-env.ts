import path from "node:path";

/** Shared by playwright.config.ts (which starts the servers) and the fixtures (which write to their databases). */
// E2E_PORT lets two checkouts on one machine run their browser tests at the same time.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = path.resolve("tmp/e2e-data");
export const E2E_SECRET = "e2e-secret-that-is-long-enough-for-better-auth-0123456789";

/** The second server, on PostgreSQL (the `postgres` project): the next port, a data directory of its own. */
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? E2E_PORT + 1);
export const E2E_PG_BASE_URL = `http://127.0.0.1:${E2E_PG_PORT}`;
export const E2E_PG_DATA_DIR = path.resolve("tmp/e2e-data-postgres");

/**
 * The PostgreSQL server's own database on the TEST_DATABASE_URL server, dropped and made afresh at every start
 * (tests/e2e/start-server.js). Named after the port, so two checkouts on one machine never share one, and a
 * killed run's database is dropped by the next run. Undefined without TEST_DATABASE_URL.
 */
export const E2E_PG_DATABASE_URL = (() => {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return undefined;
  const url = new URL(server);
  url.pathname = `/vitrine_e2e_${E2E_PG_PORT}`;
  return url.href;
})();

/**
 * Each server's whole output (tests/e2e/start-server.js) and the secrets the tests used (tests/support/secret-ledger.ts),
 * checked after the run. Not under test-results/: Playwright empties that after the servers have started.
 */
export const E2E_LOG_DIR = path.resolve("tmp/e2e-logs");

/** Which server a project's tests talk to, and where its data is. */
export type E2EServer = {
  kind: "sqlite" | "postgres";
  baseURL: string;
  dataDir: string;
  /** PostgreSQL only: undefined when TEST_DATABASE_URL is not set (the project's tests are then skipped). */
  databaseUrl?: string;
  logFile: string;
};

export const SQLITE_SERVER: E2EServer = {
  kind: "sqlite",
  baseURL: E2E_BASE_URL,
  dataDir: E2E_DATA_DIR,
  logFile: path.join(E2E_LOG_DIR, `server-${E2E_PORT}.log`),
};

export const POSTGRES_SERVER: E2EServer = {
  kind: "postgres",
  baseURL: E2E_PG_BASE_URL,
  dataDir: E2E_PG_DATA_DIR,
  databaseUrl: E2E_PG_DATABASE_URL,
  logFile: path.join(E2E_LOG_DIR, `server-${E2E_PG_PORT}.log`),
};

/** The servers this run starts: the PostgreSQL one only with TEST_DATABASE_URL. */
export const E2E_SERVERS: E2EServer[] = E2E_PG_DATABASE_URL ? [SQLITE_SERVER, POSTGRES_SERVER] : [SQLITE_SERVER];
