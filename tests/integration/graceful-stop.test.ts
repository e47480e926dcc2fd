import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "#tests/support/server-process.ts";
import { createTestDatabase } from "#tests/support/test-database.ts";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

type Outcome = {
  /** When the request was written to its connection (performance.now()); Infinity if it never was. */
  sentAt: number;
  status?: number;
  /** The whole response arrived (not cut off mid-body). */
  complete?: boolean;
  error?: string;
};

/** One GET over the keep-alive agent, recording when it went out and whether its answer came back whole. */
function keepAliveGet(agent: http.Agent, url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let sentAt = Number.POSITIVE_INFINITY;
    const outgoing = http.get(url, { agent }, (response) => {
      response.resume();
      response.on("end", () => resolve({ sentAt, status: response.statusCode, complete: response.complete }));
      response.on("error", (error) =>
        resolve({ sentAt, error: (error as NodeJS.ErrnoException).code ?? error.message }),
      );
    });
    outgoing.on("finish", () => {
      sentAt = performance.now();
    });
    outgoing.on("error", (error) => resolve({ sentAt, error: (error as NodeJS.ErrnoException).code ?? error.message }));
  });
}

/** Kept pages (sent before Express), pages rendered each time (a new page number), the API. */
function burstPath(index: number): string {
  const paths = ["/", "/faq", `/?page=${index}`, "/links", "/api/settings", "/?lang=de", "/videos"];
  return paths[index % paths.length] ?? "/";
}

describe("SIGTERM in the middle of a burst of keep-alive requests", () => {
  it("answers every request sent before the signal in full, cuts off none sent after, then exits with 0", async () => {
    const database = await createTestDatabase("sqlite");
    cleanup.push(() => database.destroy());
    const server: ServerProcess = await startServer({
      dataDir: database.location.dataDir,
      databaseUrl: database.location.databaseUrl,
    });
    cleanup.push(() => server.stop("SIGKILL"));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    cleanup.push(async () => agent.destroy());

    // Warm: the kept pages exist and every connection is open and idle between requests.
    await Promise.all(Array.from({ length: 64 }, (_, index) => keepAliveGet(agent, server.url(burstPath(index)))));

    let signalAt = Number.POSITIVE_INFINITY;
    let answered = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 400 }, async (_, index) => {
        const outcome = await keepAliveGet(agent, server.url(burstPath(index)));
        answered++;
        if (answered === 100) {
          signalAt = performance.now();
          server.child.kill("SIGTERM");
        }
        return outcome;
      }),
    );
    const exit = await server.exited;

    const sentBefore = outcomes.filter((outcome) => outcome.sentAt < signalAt);
    expect(sentBefore.length).toBeGreaterThan(100);
    const failed = sentBefore.filter((outcome) => outcome.error || outcome.status !== 200 || !outcome.complete);
    expect(failed, `${failed.length} of ${sentBefore.length} sent before the signal failed`).toEqual([]);
    // Nor is any request sent afterwards cut off: it is answered in full (on a connection the server had kept
    // open for it), or its new connection is refused before it is sent, which any client may safely retry.
    const cut = outcomes.filter(
      (outcome) =>
        !(outcome.status === 200 && outcome.complete) &&
        !(outcome.error === "ECONNREFUSED" && outcome.sentAt === Number.POSITIVE_INFINITY),
    );
    expect(cut, `${cut.length} of ${outcomes.length} requests were cut off`).toEqual([]);
    expect(exit.code).toBe(0);
    expect(server.stderr).toBe("");
  });
});
