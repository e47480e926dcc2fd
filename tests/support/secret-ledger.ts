import fs from "node:fs";
import path from "node:path";

/**
 * Every server the tests start writes its output under SERVER_LOG_DIR, and every secret the fixtures make
 * (passwords, invite codes, session tokens) is noted in SECRETS_DIR; after the whole run the global teardown
 * (tests/integration/global-setup.ts, tests/e2e/global-setup.ts) fails if any log holds any of them.
 * The browser tests name their own folder in VITRINE_TEST_LOG_DIR (playwright.config.ts), so that neither run
 * clears the other's.
 */
const OWN_DIR = process.env.VITRINE_TEST_LOG_DIR;
export const SERVER_LOG_DIR = OWN_DIR ?? path.resolve(import.meta.dirname, "../../test-results/server-logs");
const SECRETS_DIR = path.join(SERVER_LOG_DIR, "secrets");

/** Only inside a test run: the seed script shares the factories and must leave no files behind. */
const recording = process.env.VITEST !== undefined || OWN_DIR !== undefined;

/** Notes a value no server may ever log (short values are skipped: they would match by chance). */
export function noteSecret(value: string | undefined): void {
  if (!recording || !value || value.length < 8) return;
  fs.mkdirSync(SECRETS_DIR, { recursive: true });
  fs.appendFileSync(path.join(SECRETS_DIR, `${process.pid}.txt`), `${value}\n`);
}

/** A file for one server's output, in this run's folder. */
export function serverLogFile(port: number): string | null {
  if (!recording) return null;
  fs.mkdirSync(SERVER_LOG_DIR, { recursive: true });
  return path.join(SERVER_LOG_DIR, `server-${port}-${process.pid}-${Date.now()}.log`);
}

/** Clears the previous run's logs and secrets (global setup). */
export function resetLedger(): void {
  fs.rmSync(SERVER_LOG_DIR, { recursive: true, force: true });
  fs.mkdirSync(SECRETS_DIR, { recursive: true });
}

/** Clears the previous run's secrets only: the browser tests' servers have started, and are logging, before it. */
export function resetSecrets(): void {
  fs.rmSync(SECRETS_DIR, { recursive: true, force: true });
  fs.mkdirSync(SECRETS_DIR, { recursive: true });
}

/** The first-admin setup code is printed on purpose (README); that one line is not a leak. */
const DOCUMENTED_LINE = /^Admin setup code: /;

export type Leak = { file: string; line: number; secret: string };

/** Every place a noted secret occurs in a captured server log (this run's files, when a run names them). */
export function findLeaks(logFiles?: string[]): Leak[] {
  if (!fs.existsSync(SECRETS_DIR)) return [];
  const secrets = new Set<string>();
  for (const file of fs.readdirSync(SECRETS_DIR)) {
    for (const value of fs.readFileSync(path.join(SECRETS_DIR, file), "utf8").split("\n")) {
      if (value.length >= 8) secrets.add(value);
    }
  }
  const leaks: Leak[] = [];
  const files =
    logFiles ??
    fs
      .readdirSync(SERVER_LOG_DIR)
      .filter((name) => name.endsWith(".log"))
      .map((name) => path.join(SERVER_LOG_DIR, name));
  for (const file of files.filter((name) => fs.existsSync(name))) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.forEach((text, index) => {
      if (DOCUMENTED_LINE.test(text)) return;
      for (const secret of secrets) {
        if (text.includes(secret)) leaks.push({ file, line: index + 1, secret: `${secret.slice(0, 4)}…` });
      }
    });
  }
  return leaks;
}
