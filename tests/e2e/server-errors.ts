import fs from "node:fs";
import path from "node:path";
import { E2E_LOG_DIR } from "./e2e-env.ts";

/**
 * The error lines (pino level 50 and up) the browser tests' servers may log: a test that provokes one names it with
 * `test.use({ expectedServerErrors: [/…/] })` (tests/e2e/fixtures.ts), noted here; any other fails the run
 * (tests/e2e/global-setup.ts). Tests share the servers, so a line cannot be tied to the test that caused it: a
 * named error is allowed for the whole run.
 */
const EXPECTED_DIR = path.join(E2E_LOG_DIR, "expected-errors");

/** pino's level for `error`. */
const ERROR_LEVEL = 50;
/** better-auth logs through its own console logger: `2026-01-01T00:00:00.000Z ERROR [Better Auth]: …`. */
const PLAIN_ERROR = /^\S+ ERROR \[/;

export function resetExpectedServerErrors(): void {
  fs.rmSync(EXPECTED_DIR, { recursive: true, force: true });
}

export function noteExpectedServerErrors(patterns: RegExp[]): void {
  if (patterns.length === 0) return;
  fs.mkdirSync(EXPECTED_DIR, { recursive: true });
  const lines = patterns.map((pattern) => `${JSON.stringify({ source: pattern.source, flags: pattern.flags })}\n`);
  fs.appendFileSync(path.join(EXPECTED_DIR, `${process.pid}.txt`), lines.join(""));
}

function expectedPatterns(): RegExp[] {
  if (!fs.existsSync(EXPECTED_DIR)) return [];
  return fs.readdirSync(EXPECTED_DIR).flatMap((file) =>
    fs
      .readFileSync(path.join(EXPECTED_DIR, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const { source, flags } = JSON.parse(line) as { source: string; flags: string };
        return new RegExp(source, flags);
      }),
  );
}

/** Every error line in the servers' logs that no test named, as `file:line message`. */
export function unexpectedServerErrors(logFiles: string[]): string[] {
  const expected = expectedPatterns();
  return logFiles
    .filter((file) => fs.existsSync(file))
    .flatMap((file) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .flatMap((text, index) => {
          if (PLAIN_ERROR.test(text))
            return expected.some((pattern) => pattern.test(text)) ? [] : [`${file}:${index + 1} ${text}`];
          if (!text.startsWith("{")) return [];
          let line: { level?: number; msg?: string; err?: { message?: string } };
          try {
            line = JSON.parse(text);
          } catch {
            return [];
          }
          if ((line.level ?? 0) < ERROR_LEVEL) return [];
          const message = [line.msg, line.err?.message].filter(Boolean).join(": ");
          if (expected.some((pattern) => pattern.test(message))) return [];
          return [`${file}:${index + 1} ${message}`];
        }),
    );
}
