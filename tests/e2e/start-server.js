// Starts the production server for the browser tests on a data directory (and, on PostgreSQL, a database) no
// earlier run has touched. It runs as a child process so that its whole output, which pino writes straight to
// file descriptor 1, can be kept in SERVER_LOG_FILE: after the run that file is checked for the tests' secrets and
// for error lines (tests/e2e/global-setup.ts). Only warnings and errors are shown with the tests' output.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import pg from "pg";

const dataDir = process.env.DATA_DIR;
if (!dataDir?.includes("tmp")) throw new Error(`Refusing to clear DATA_DIR=${dataDir}`);
const logFile = process.env.SERVER_LOG_FILE;
if (!logFile) throw new Error("SERVER_LOG_FILE is not set");
const databaseUrl = process.env.DATABASE_URL || undefined;
const databaseName = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : undefined;
if (databaseName !== undefined && !/^vitrine_e2e_\d+$/.test(databaseName))
  throw new Error(`Refusing to drop the database ${databaseName}`);

/** One statement on the PostgreSQL server, through TEST_DATABASE_URL's database, as the Vitest tests make theirs. */
async function onServer(statement) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const dropDatabase = () => onServer(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);

fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(path.dirname(logFile), { recursive: true });
const log = fs.createWriteStream(logFile);
if (databaseName) {
  await dropDatabase();
  await onServer(`CREATE DATABASE ${databaseName}`);
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const shownLevel = LEVELS[process.env.SHOWN_LOG_LEVEL ?? "warn"] ?? LEVELS.warn;

/** Plain lines (the admin setup code, a start-up failure) are always shown; JSON ones from the shown level up. */
function isShown(line) {
  if (!line.startsWith("{")) return true;
  try {
    return (JSON.parse(line).level ?? LEVELS.fatal) >= shownLevel;
  } catch {
    return true;
  }
}

const server = spawn(process.execPath, ["server.js"], { stdio: ["ignore", "pipe", "pipe"], env: process.env });
for (const [input, output] of [
  [server.stdout, process.stdout],
  [server.stderr, process.stderr],
]) {
  readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    log.write(`${line}\n`);
    if (isShown(line)) output.write(`${line}\n`);
  });
}

// Playwright stops the whole process group (the server gets the signal itself); a stop of this process alone is
// passed on.
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.kill(signal));

// "close", not "exit": by then the last lines are in the log.
server.on("close", async (code, signal) => {
  log.end();
  if (databaseName) await dropDatabase().catch((error) => console.error(`Dropping ${databaseName}: ${error.message}`));
  process.exit(code ?? (signal ? 1 : 0));
});
