import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "#app/lib/logger.server.ts";
import { logBackgroundFailure } from "./background-failure.server.ts";

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", destination }) };
}

describe("a background task's failure in the log", () => {
  it("is one line without a stack while PostgreSQL shuts down or is away (57P03, a refused connection)", () => {
    const { lines, logger } = capturedLogger();
    const shuttingDown = Object.assign(new Error("the database system is shutting down"), { code: "57P03" });
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    logBackgroundFailure(logger, "Could not read the change events", shuttingDown);
    logBackgroundFailure(logger, "Could not read the change events", refused);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 40,
      msg: "Could not read the change events: the database is unreachable",
      reason: "the database system is shutting down",
    });
    expect(lines[1]).toMatchObject({ reason: "connect ECONNREFUSED 127.0.0.1:5432" });
    expect(JSON.stringify(lines)).not.toMatch(/"stack"/);
  });

  it("keeps the stack of any other failure: that one is a bug to find", () => {
    const { lines, logger } = capturedLogger();
    logBackgroundFailure(logger, "Could not trim the change events", new TypeError("x is not a function"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: "Could not trim the change events" });
    expect(JSON.stringify(lines[0])).toMatch(/"stack":"TypeError: x is not a function/);
  });
});
