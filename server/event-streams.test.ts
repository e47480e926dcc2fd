import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  identity,
  type Reader,
  type StreamSite,
  seqsIn,
  serveStreams,
  until,
} from "#tests/support/live-stream-site.ts";

// GET /api/events' own rules, on a real HTTP server with an in-memory change feed: what a reader that stops
// reading costs, the caps, heartbeats and the goodbye on shutdown. Who sees what: event-streams-audience.test.ts.

let site: StreamSite | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

const start = async (limits: Parameters<typeof serveStreams>[0] = {}) => {
  site = await serveStreams(limits);
  return site;
};

const readyOf = (reader: Reader) => until(() => reader.messages.some((message) => message.event === "ready"));

/** A client that sends its request and then reads nothing: its socket's buffers fill as the server writes. */
async function stuckReader(current: StreamSite): Promise<net.Socket> {
  const socket = net.connect({ host: "127.0.0.1", port: current.port });
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.pause();
  socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  return socket;
}

describe("a reader that stops reading", () => {
  it("is dropped once more than maxPending messages wait for it, while a reader that reads gets every one", async () => {
    const current = await start({ limits: { maxPending: 100 } });
    const reader = await current.open();
    await readyOf(reader);
    const stuck = await stuckReader(current);
    await until(() => current.streams.size() === 2);
    const serverSide = current.serverSocketFor(stuck.localPort ?? 0);
    expect(serverSide).toBeDefined();

    // One message far larger than the kernel's buffers on both ends (4 MB to send, a paused 128 KB to receive):
    // from here on the server can hand the stuck socket nothing more, and every message waits in its memory.
    const [huge] = current.push({ id: "x".repeat(16 * 1024 * 1024) });
    await until(
      () => seqsIn(reader).includes(huge?.seq ?? -1),
      () => seqsIn(reader),
      20_000,
    );
    const sent = [huge?.seq];
    // One at a time, each read by the reader that reads before the next: only the stuck one falls behind.
    for (let count = 1; count <= 100; count++) {
      const [event] = current.push({ id: `small-${count}` });
      sent.push(event?.seq);
      await until(
        () => seqsIn(reader).includes(event?.seq ?? -1),
        () => seqsIn(reader).slice(-3),
      );
    }
    // A hundred wait for it: kept.
    expect(serverSide?.destroyed).toBe(false);
    expect(current.streams.size()).toBe(2);

    const [last] = current.push({ id: "small-101" });
    sent.push(last?.seq);
    await until(
      () => current.streams.size() === 1,
      () => current.streams.size(),
    );
    expect(serverSide?.destroyed).toBe(true);
    await until(() => seqsIn(reader).includes(last?.seq ?? -1));
    expect(seqsIn(reader)).toEqual(sent);
    expect(reader.isEnded()).toBe(false);

    // Once it reads again, it finds its connection ended, without what it fell behind on.
    let received = "";
    stuck.setEncoding("latin1");
    stuck.on("data", (chunk: string) => {
      received += chunk.replaceAll("x", "");
    });
    stuck.on("error", () => {});
    const closed = new Promise((resolve) => stuck.on("close", resolve));
    stuck.resume();
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).not.toContain("small-101");

    // The reader that kept up is still served.
    const [after] = current.push({});
    await until(() => seqsIn(reader).includes(after?.seq ?? -1));
  }, 60_000);
});

describe("the caps", () => {
  it("answers 429 past the per-address cap and 503 past the total, each with Retry-After; a closed stream frees its slot", async () => {
    const current = await start({ limits: { perClient: 2, total: 3 } });
    const first = await current.open({ localAddress: "127.0.0.2" });
    const second = await current.open({ localAddress: "127.0.0.2" });
    expect([first.status, second.status]).toEqual([200, 200]);

    const tooManyHere = await current.open({ localAddress: "127.0.0.2" });
    expect(tooManyHere.status).toBe(429);
    expect(Number(tooManyHere.headers["retry-after"])).toBeGreaterThan(0);
    expect(tooManyHere.body()).toBe("Too many live connections from this address.");

    // Another address is not held back by the first one's cap, until the process is full.
    const third = await current.open({ localAddress: "127.0.0.3" });
    expect(third.status).toBe(200);
    const full = await current.open({ localAddress: "127.0.0.4" });
    expect(full.status).toBe(503);
    expect(Number(full.headers["retry-after"])).toBeGreaterThan(0);
    expect(full.body()).toBe("Too many live connections.");
    expect(current.streams.size()).toBe(3);

    // A closed stream gives back both its slot in the process and its address's.
    first.close();
    await until(() => current.streams.size() === 2);
    const again = await current.open({ localAddress: "127.0.0.2" });
    expect(again.status).toBe(200);
    await readyOf(again);
    // The refusals took no slot: the process is full again with exactly three.
    expect((await current.open({ localAddress: "127.0.0.5" })).status).toBe(503);
  });

  it("counts a stream whose session is still being read, so a burst cannot pass the cap while it waits", async () => {
    const current = await start({ limits: { perClient: 2, total: 100 } });
    const release = current.hold();
    const burst = [1, 2, 3, 4].map(() => current.open({ localAddress: "127.0.0.6" }));
    // Two are let in to wait for their sessions; the two over the cap never get that far.
    await until(() => current.identifyCalls.length === 2);
    release();
    const statuses = (await Promise.all(burst)).map((reader) => reader.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(current.identifyCalls).toHaveLength(2);
  });

  it("frees the slot of a stream whose session could not be read, and says 503 with Retry-After", async () => {
    const current = await start({ limits: { perClient: 1 } });
    current.failIdentify(new Error("database away"));
    const refused = await current.open({ localAddress: "127.0.0.7" });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(current.errors).toEqual([new Error("database away")]);
    current.failIdentify(null);
    expect((await current.open({ localAddress: "127.0.0.7" })).status).toBe(200);
  });
});

describe("heartbeats", () => {
  it("sends every open stream a comment line at the configured interval, and no message", async () => {
    const current = await start({ limits: { heartbeatMs: 150 } });
    const readers = [await current.open(), await current.open({ cookie: "who=anyone" })];
    for (const reader of readers) await readyOf(reader);
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const reader of readers) {
      const pings = reader.comments.filter((comment) => comment.at >= from);
      // 1000 ms at 150 ms: six or so; a busy machine may delay one, never send them faster.
      expect(pings.length).toBeGreaterThanOrEqual(4);
      expect(pings.length).toBeLessThanOrEqual(7);
      expect(new Set(pings.map((ping) => ping.text))).toEqual(new Set([": ping"]));
      const gaps = pings.slice(1).map((ping, index) => ping.at - (pings[index]?.at ?? 0));
      for (const gap of gaps) expect(gap).toBeGreaterThan(75);
      expect(reader.messages.map((message) => message.event)).toEqual(["ready"]);
    }
  });
});

describe("closeAll", () => {
  it("says goodbye with reason shutdown and ends every stream; later requests get 503", async () => {
    const current = await start();
    current.people.set("who=admin", identity("admin", "u-admin"));
    const readers = [await current.open(), await current.open({ cookie: "who=admin" }), await current.open()];
    for (const reader of readers) await readyOf(reader);
    current.streams.closeAll();
    for (const reader of readers) {
      await reader.ended;
      expect(reader.messages.at(-1)).toMatchObject({ event: "bye", data: { reason: "shutdown" } });
    }
    await until(() => current.streams.size() === 0);
    const later = await current.open();
    expect(later.status).toBe(503);
    expect(Number(later.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("refuses with 503 a stream whose session was still being read when the stop began", async () => {
    const current = await start();
    const release = current.hold();
    const opening = current.open();
    await until(() => current.identifyCalls.length === 1);
    current.streams.closeAll();
    release();
    const refused = await opening;
    expect(refused.status).toBe(503);
    expect(current.streams.size()).toBe(0);
  });
});
