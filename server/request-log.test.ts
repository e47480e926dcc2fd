import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "#app/lib/logger.server.ts";
import { loggedTarget } from "./request-log.ts";

describe("loggedTarget", () => {
  it("keeps the path and the harmless query, and hides the values of secret parameters", () => {
    expect(loggedTarget("/faq")).toEqual({ path: "/faq" });
    expect(loggedTarget("/?page=2&category=cats")).toEqual({ path: "/", query: "page=2&category=cats" });
    expect(loggedTarget("/media-private/a.jpg?expires=9&sig=abc")).toEqual({
      path: "/media-private/a.jpg",
      query: "expires=9&sig=[redacted]",
    });
    expect(loggedTarget("/auth?invite=ABCD-EFGH&mode=sign-up").query).toBe("invite=[redacted]&mode=sign-up");
    expect(loggedTarget("/x?token=1&TOKEN=2&session_id=3&authCode=4").query).toBe(
      "token=[redacted]&TOKEN=[redacted]&session_id=[redacted]&authCode=[redacted]",
    );
    expect(loggedTarget("/x?")).toEqual({ path: "/x" });
    expect(loggedTarget("/unsubscribe/dXNlcg.c2lnbmF0dXJl?lang=de")).toEqual({
      path: "/unsubscribe/[redacted]",
      query: "lang=de",
    });
    expect(loggedTarget("/unsubscribe/dXNlcg.c2lnbmF0dXJl.data")).toEqual({ path: "/unsubscribe/[redacted]" });
  });
});

describe("the logger", () => {
  it("writes JSON lines at its level and never the value of a secret field", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const logger = createLogger({ level: "warn", destination });
    logger.info("not at warn");
    logger.warn(
      { password: "hunter22!", headers: { cookie: "vitrine.session_token=abc" }, form: { inviteCode: "X" } },
      "w",
    );
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? "{}");
    expect(line).toMatchObject({ level: 40, msg: "w", password: "[redacted]", headers: { cookie: "[redacted]" } });
    expect(line.form.inviteCode).toBe("[redacted]");
    expect(lines[0]).not.toContain("hunter22");
  });
});
