import { format } from "node:util";

/**
 * Every error a test run logs, wherever it was logged: through the app's logger in this process, through
 * `console.error`, or by a server the test started (its JSON lines at error level and its stderr). The setup
 * file (error-log-guard.ts) fails a test that logged one it did not declare with `expectErrorLog`.
 */
export type ErrorLine = {
  source: "logger" | "console" | "server";
  /** The line as written: a JSON line, or console.error's arguments formatted as console would. */
  text: string;
};

export type LoggedLine = { level: number; text: string; record: Record<string, unknown> };

type Expectation = { matches: (text: string) => boolean; wanted: string; seen: ErrorLine[] };

type State = {
  errors: ErrorLine[];
  /** Every line of the app's logger in this process, for tests that assert what was (not) logged. */
  logged: LoggedLine[];
  forTest: Expectation[];
  forFile: Expectation[];
  inTest: boolean;
};

const holder = globalThis as typeof globalThis & { __vitrineErrorLogs?: State };

function state(): State {
  holder.__vitrineErrorLogs ??= { errors: [], logged: [], forTest: [], forFile: [], inTest: false };
  return holder.__vitrineErrorLogs;
}

/** pino's level number of `error`; `fatal` (60) counts too. */
export const ERROR_LEVEL = 50;

/**
 * Declares that an error line matching `wanted` is part of what the test checks. Declare it before the action
 * that logs it: a line is judged when it arrives. Called inside a test it holds for that test, called in a
 * describe block or a beforeAll for the whole file. Returns the lines it let through, to assert that they came.
 */
export function expectErrorLog(wanted: RegExp | string): { readonly lines: ErrorLine[] } {
  const matches = (text: string) => (typeof wanted === "string" ? text.includes(wanted) : wanted.test(text));
  const expectation: Expectation = { matches, wanted: String(wanted), seen: [] };
  const current = state();
  (current.inTest ? current.forTest : current.forFile).push(expectation);
  return {
    get lines() {
      return expectation.seen;
    },
  };
}

/** The app logger's lines (in this process) logged since the test began, at `level` or above. */
export function loggedLines(level = 0): LoggedLine[] {
  return state().logged.filter((line) => line.level >= level);
}

/** Records an error line; it is let through when an expectation matches it. */
export function noteErrorLine(line: ErrorLine): void {
  const current = state();
  const expectation = [...current.forTest, ...current.forFile].find((candidate) => candidate.matches(line.text));
  if (expectation) expectation.seen.push(line);
  else current.errors.push(line);
}

/** A line of the app's logger (the setup file's destination calls this for every line). */
export function noteLoggerLine(text: string): void {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return;
  }
  const level = typeof record.level === "number" ? record.level : 0;
  state().logged.push({ level, text, record });
  if (level >= ERROR_LEVEL) noteErrorLine({ source: "logger", text: text.trimEnd() });
}

export function noteConsoleError(args: unknown[]): void {
  noteErrorLine({ source: "console", text: format(...args) });
}

/** Takes the undeclared errors noted so far (the guard reports them once). */
export function takeUnexpectedErrors(): ErrorLine[] {
  return state().errors.splice(0);
}

export function beginTest(): void {
  const current = state();
  current.inTest = true;
  current.forTest = [];
  current.logged = [];
}

/** A new file begins: what an earlier file in the same worker declared no longer holds. */
export function beginFile(): void {
  const current = state();
  current.forFile = [];
  current.forTest = [];
  current.errors = [];
  current.inTest = false;
}

export function endTest(): void {
  const current = state();
  current.inTest = false;
  current.forTest = [];
}

/**
 * What a server writes to stderr that is a warning, not an error: better-auth's own logger (warn and below:
 * a wrong password is its "WARN") and Node's process warnings.
 */
const STDERR_WARNINGS = [
  /^\S+ (WARN|INFO|DEBUG|SUCCESS) \[Better Auth\]:/,
  /^\(node:\d+\) (\[\w+\] )?\w*Warning\b/,
  /^\(Use `node --trace-\w+ \.\.\.` to show where the warning was created\)$/,
];

/** A line of a server process's output: JSON lines at error level and above, and stderr lines but warnings. */
export function isServerErrorLine(line: string, stream: "stdout" | "stderr"): boolean {
  if (line.trim() === "") return false;
  if (stream === "stderr") return !STDERR_WARNINGS.some((warning) => warning.test(line));
  if (!line.startsWith("{")) return false;
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level === "number" && level >= ERROR_LEVEL;
  } catch {
    return false;
  }
}
