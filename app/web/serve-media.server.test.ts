import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalStorage, type FileStorage } from "#app/domains/media/storage.server.ts";
import { mediaHandler } from "./serve-media.server.ts";

describe("serving stored media", () => {
  let root: string;
  let server: http.Server;
  let passedOn: unknown[];
  let opened: Readable[];
  let statGate: Promise<void> | null;
  let requestClosed: Promise<void>;
  /** Resolved once a request has asked for the file's stat, and once the stat has come back. */
  let statAsked: Promise<void>;
  let statAnswered: Promise<void>;

  beforeEach(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-serve-media-"));
    const local = createLocalStorage({ root, secret: "test-secret" });
    await local.save("public/videos/clip.mp4", Buffer.alloc(256 * 1024, 7));
    passedOn = [];
    opened = [];
    statGate = null;
    let asked!: () => void;
    let answered!: () => void;
    statAsked = new Promise((resolve) => {
      asked = resolve;
    });
    statAnswered = new Promise((resolve) => {
      answered = resolve;
    });
    const storage: FileStorage = {
      ...local,
      async stat(key) {
        asked();
        await statGate;
        const stat = await local.stat(key);
        answered();
        return stat;
      },
      async readStream(key, range) {
        const stream = await local.readStream(key, range);
        opened.push(stream);
        return stream;
      },
    };
    const handle = mediaHandler(() => storage);
    let closed!: () => void;
    requestClosed = new Promise((resolve) => {
      closed = resolve;
    });
    server = http.createServer((req, res) => {
      req.on("close", closed);
      handle(req, res, (error) => {
        passedOn.push(error ?? "next");
        if (!res.headersSent) res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(root, { recursive: true, force: true });
  });

  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/videos/clip.mp4`;

  it("sends the file whole and in a range", async () => {
    const whole = await fetch(url());
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBe(256 * 1024);
    const part = await fetch(url(), { headers: { Range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    expect(passedOn).toEqual([]);
  });

  it("lets a visitor who stopped waiting go quietly: no error, and no file left open", async () => {
    let release!: () => void;
    statGate = new Promise((resolve) => {
      release = resolve;
    });
    const request = http.get(url());
    request.on("error", () => {});
    // The browser gives up (a lazy picture scrolled away, a page left) before the file is looked up.
    await statAsked;
    request.destroy();
    await requestClosed;
    release();
    await statAnswered;
    // Not a fixed wait: a whole request sent after the stat came back, and answered to its end, has had more
    // turns than the rest of the abandoned one needs (its stat is done; only opening the file could follow).
    const abandoned = opened.length;
    const control = await fetch(url());
    expect((await control.arrayBuffer()).byteLength).toBe(256 * 1024);
    expect(opened.length).toBeGreaterThan(abandoned);
    expect(passedOn).toEqual([]);
    for (const stream of opened.slice(0, abandoned)) expect(stream.destroyed).toBe(true);
  });
});
