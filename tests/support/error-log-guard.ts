import { afterAll, afterEach, beforeEach } from "vitest";
import { createLogger, logLevelFrom, setLogger } from "#app/lib/logger.server.ts";
import {
  beginFile,
  beginTest,
  type ErrorLine,
  endTest,
  noteConsoleError,
  noteLoggerLine,
  takeUnexpectedErrors,
} from "./error-logs.ts";

/**
 * Vitest's setup file (vitest.config.ts): a test that logs an error it did not declare with `expectErrorLog`
 * (tests/support/error-logs.ts) fails, whether the error went through the app's logger, `console.error` or a
 * server the test started. Without it, a background failure (an image's sizes, a sweep) logs a line nobody
 * reads and the test that caused it passes.
 */

beginFile();

// The app's logger writes here (synchronously, as pino calls `write` for each line) and still to stdout.
setLogger(
  createLogger({
    level: logLevelFrom(process.env),
    destination: {
      write(line: string) {
        noteLoggerLine(line);
        process.stdout.write(line);
      },
    },
  }),
);

// Wrapped once per worker: Vitest may run several files in one.
const wrapped = Symbol.for("vitrine.consoleErrorWrapped");
const current = console.error as typeof console.error & { [wrapped]?: true };
if (!current[wrapped]) {
  const guarded = Object.assign(
    (...args: unknown[]) => {
      noteConsoleError(args);
      current.apply(console, args);
    },
    { [wrapped]: true as const },
  );
  console.error = guarded;
}

function describeLines(lines: ErrorLine[]): string {
  return lines.map((line) => `  [${line.source}] ${line.text.slice(0, 2000)}`).join("\n");
}

function failOnUnexpected(when: string): void {
  const unexpected = takeUnexpectedErrors();
  if (unexpected.length === 0) return;
  throw new Error(
    `${when} logged ${unexpected.length} error line(s) it did not declare with expectErrorLog ` +
      `(tests/support/error-logs.ts):\n${describeLines(unexpected)}`,
  );
}

// Errors logged outside any test (a beforeAll, background work between tests) fail the next test or the file.
beforeEach(() => {
  failOnUnexpected("Before this test, the file");
  beginTest();
});

afterEach(() => {
  endTest();
  failOnUnexpected("The test");
});

afterAll(() => {
  failOnUnexpected("The file (in its hooks or after its last test)");
});
