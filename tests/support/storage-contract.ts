import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PRIVATE_MEDIA_CACHE_CONTROL, PUBLIC_MEDIA_CACHE_CONTROL } from "#app/domains/media/media-keys.server.ts";
import { type FileStorage, publicUrl, StorageError } from "#app/domains/media/storage.server.ts";
import { mediaHandler } from "#app/web/serve-media.server.ts";

/**
 * What every FileStorage driver must do alike (app/domains/media/storage.server.ts): one suite, registered once per
 * driver by its own test file with a harness that gives each test an empty place of its own.
 */
export type StorageHarness = {
  /** Before each test: an empty place for it (a folder, a prefix in a bucket). */
  setUp(): Promise<void> | void;
  /** After each test: removes what it left. */
  tearDown(): Promise<void> | void;
  /** A storage on this test's place whose private links are signed with `secret`. */
  open(secret: string): FileStorage;
  /** The Content-Type and Cache-Control the file under `key` goes out with, read from where the driver keeps them. */
  headersOf(storage: FileStorage, key: string): Promise<{ contentType: string | null; cacheControl: string | null }>;
};

export async function text(stream: Readable): Promise<string> {
  return (await bytes(stream)).toString("utf8");
}

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function caught(promise: Promise<unknown>): Promise<StorageError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StorageError);
  return error as StorageError;
}

/** A GET through the site's own media handler (server/app.ts mounts the same one), on a server of its own. */
export async function getThroughSite(
  storage: FileStorage,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: string }> {
  const handler = mediaHandler(() => storage);
  const server = http.createServer((req, res) =>
    handler(req, res, () => {
      res.statusCode = 418;
      res.end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, { headers });
    return { status: answer.status, headers: answer.headers, body: await answer.text() };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const keysOf = (files: { key: string }[]) => files.map((file) => file.key);

export function describeStorageContract(name: string, harness: StorageHarness): void {
  describe(`${name}: the FileStorage contract`, () => {
    let storage: FileStorage;

    beforeEach(async () => {
      await harness.setUp();
      storage = harness.open("test-secret");
    });
    afterEach(() => harness.tearDown());

    it("saves buffers and streams under public/ and private/ and reads them back", async () => {
      const saved = await storage.save("public/a/one.txt", Buffer.from("hello"));
      expect(saved).toMatchObject({ key: "public/a/one.txt", size: 5 });
      expect(saved.modifiedAt).toBeInstanceOf(Date);
      const streamed = await storage.save("private/two.txt", Readable.from([Buffer.from("str"), Buffer.from("eam")]));
      expect(streamed).toMatchObject({ key: "private/two.txt", size: 6 });
      expect(await text(await storage.readStream("public/a/one.txt"))).toBe("hello");
      expect(await text(await storage.readStream("private/two.txt"))).toBe("stream");
    });

    it("saves a stream longer than one upload part whole", async () => {
      // 6 MB: over the 5 MB part of a multipart upload, where a driver has one.
      const data = Buffer.alloc(6 * 1024 * 1024 + 3, "abcdefghij");
      const chunks = Array.from({ length: 7 }, (_, index) =>
        data.subarray(index * 1024 * 1024, (index + 1) * 1024 * 1024),
      );
      expect((await storage.save("public/videos/big.mp4", Readable.from(chunks))).size).toBe(data.length);
      const read = await bytes(await storage.readStream("public/videos/big.mp4"));
      expect(createHash("sha256").update(read).digest("hex")).toBe(createHash("sha256").update(data).digest("hex"));
    });

    it("reads inclusive byte ranges", async () => {
      await storage.save("public/range.txt", Buffer.from("hello world"));
      expect(await text(await storage.readStream("public/range.txt", { start: 1, end: 3 }))).toBe("ell");
      expect(await text(await storage.readStream("public/range.txt", { start: 0, end: 0 }))).toBe("h");
      expect(await text(await storage.readStream("public/range.txt", { start: 6, end: 10 }))).toBe("world");
    });

    it("answers not_found for a missing file, and stat answers null", async () => {
      expect((await caught(storage.readStream("public/none.txt"))).code).toBe("not_found");
      await expect(storage.readStream("public/none.txt")).rejects.toThrow(/No file/);
      expect(await storage.stat("public/none.txt")).toBeNull();
      await storage.save("public/some.txt", Buffer.from("abc"));
      const info = await storage.stat("public/some.txt");
      expect(info).toMatchObject({ key: "public/some.txt", size: 3 });
      expect(Math.abs((info?.modifiedAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    });

    it("does not overwrite unless asked, whether the body is a buffer or a stream", async () => {
      await storage.save("public/x.txt", Buffer.from("first"));
      const refused = await caught(storage.save("public/x.txt", Buffer.from("second")));
      expect(refused.code).toBe("exists");
      expect(refused.message).toMatch(/already exists/);
      const stream = Readable.from([Buffer.from("third")]);
      expect((await caught(storage.save("public/x.txt", stream))).code).toBe("exists");
      expect(stream.destroyed).toBe(true);
      expect(await text(await storage.readStream("public/x.txt"))).toBe("first");
      expect((await storage.save("public/x.txt", Buffer.from("second!"), { overwrite: true })).size).toBe(7);
      expect(await text(await storage.readStream("public/x.txt"))).toBe("second!");
      await storage.save("public/x.txt", Readable.from([Buffer.from("4")]), { overwrite: true });
      expect(await text(await storage.readStream("public/x.txt"))).toBe("4");
    });

    it("closes a file stream it refuses, and that stream's late error (its file gone before it opened) goes nowhere", async () => {
      // A refused upload's request ends at once and its temporary file is removed: a stream on it, made before the
      // save was called, opens only afterwards and fails. An error no one listens to would stop the process.
      await storage.save("public/x.txt", Buffer.from("first"));
      const gone = () => fs.createReadStream(path.join(os.tmpdir(), `vitrine-gone-${randomUUID()}.upload`));
      const taken = gone();
      expect((await caught(storage.save("public/x.txt", taken))).code).toBe("exists");
      const outside = gone();
      await expect(storage.save("../outside.txt", outside)).rejects.toThrow();
      for (const stream of [taken, outside]) {
        if (!stream.closed) await new Promise<void>((resolve) => stream.once("close", () => resolve()));
      }
      expect(await text(await storage.readStream("public/x.txt"))).toBe("first");
    });

    it("never leaves a file under the name when the source fails midway", async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.from("partial"));
          this.destroy(new Error("connection lost"));
        },
      });
      await expect(storage.save("public/broken.bin", failing)).rejects.toThrow("connection lost");
      expect(await storage.stat("public/broken.bin")).toBeNull();
      expect(await storage.list("public/")).toEqual([]);
    });

    it("refuses keys that could leave the storage or name no area, in every method", async () => {
      await storage.save("public/fine.txt", Buffer.from("fine"));
      for (const key of [
        "../etc/passwd",
        "public/../../etc/passwd",
        "/etc/passwd",
        "public//x",
        "public/./x",
        "other/x.txt",
        "public",
        "public/a\\b",
        "public/.hidden",
      ]) {
        await expect(storage.save(key, Buffer.from("x")), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.readStream(key), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.stat(key), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.remove(["public/fine.txt", key]), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.copy("public/fine.txt", key), key).rejects.toThrow(/Invalid storage key/);
        await expect(storage.move(key, "public/fine.txt"), key).rejects.toThrow(/Invalid storage key/);
      }
      for (const prefix of ["other/", "../", "public/../private/", ""]) {
        await expect(storage.list(prefix), prefix).rejects.toThrow(/Invalid storage prefix/);
      }
      expect(keysOf(await storage.list("public/"))).toEqual(["public/fine.txt"]);
    });

    it("lists by prefix, recursively, in name order", async () => {
      await storage.save("public/list/b.txt", Buffer.from("bb"));
      await storage.save("public/list/a.txt", Buffer.from("aaa"));
      await storage.save("public/list/sub/c.txt", Buffer.from("c"));
      await storage.save("public/other.txt", Buffer.from("o"));
      await storage.save("private/list/d.txt", Buffer.from("d"));
      const listed = await storage.list("public/list/");
      expect(keysOf(listed)).toEqual(["public/list/a.txt", "public/list/b.txt", "public/list/sub/c.txt"]);
      expect(listed[0]).toMatchObject({ size: 3 });
      expect(listed[0]?.modifiedAt).toBeInstanceOf(Date);
      expect(keysOf(await storage.list("public/li"))).toEqual(keysOf(listed));
      expect(keysOf(await storage.list("public/"))).toEqual([...keysOf(listed), "public/other.txt"]);
      expect(await storage.list("public/missing/")).toEqual([]);
    });

    it("pages a list: 100 from the first by default, then by limit and offset", async () => {
      const keys = Array.from({ length: 103 }, (_, index) => `public/many/f${String(index).padStart(3, "0")}.txt`);
      for (let start = 0; start < keys.length; start += 20) {
        await Promise.all(keys.slice(start, start + 20).map((key) => storage.save(key, Buffer.from("x"))));
      }
      expect(keysOf(await storage.list("public/many/"))).toEqual(keys.slice(0, 100));
      expect(keysOf(await storage.list("public/many/", { offset: 100 }))).toEqual(keys.slice(100));
      expect(keysOf(await storage.list("public/many/", { limit: 2, offset: 50 }))).toEqual(keys.slice(50, 52));
      expect(await storage.list("public/many/", { limit: 0 })).toEqual([]);
      expect(await storage.list("public/many/", { offset: 200 })).toEqual([]);
      expect(
        keysOf(await storage.list("public/many/", { limit: 3, sortBy: { column: "name", order: "desc" } })),
      ).toEqual([keys[102], keys[101], keys[100]]);
    });

    it("sorts a list by size and by modification time, either way", async () => {
      await storage.save("public/sort/b.txt", Buffer.from("bb"));
      await storage.save("public/sort/c.txt", Buffer.from("c"));
      // Apart by more than a second: some stores keep modification times to the second.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await storage.save("public/sort/a.txt", Buffer.from("aaa"));
      const sizes = (files: { size: number }[]) => files.map((file) => file.size);
      expect(sizes(await storage.list("public/sort/", { sortBy: { column: "size" } }))).toEqual([1, 2, 3]);
      expect(sizes(await storage.list("public/sort/", { sortBy: { column: "size", order: "desc" } }))).toEqual([
        3, 2, 1,
      ]);
      expect(
        keysOf(await storage.list("public/sort/", { limit: 1, offset: 1, sortBy: { column: "size", order: "desc" } })),
      ).toEqual(["public/sort/b.txt"]);
      expect(keysOf(await storage.list("public/sort/", { sortBy: { column: "modifiedAt", order: "desc" } }))[0]).toBe(
        "public/sort/a.txt",
      );
      expect(keysOf(await storage.list("public/sort/", { sortBy: { column: "modifiedAt" } }))[2]).toBe(
        "public/sort/a.txt",
      );
      expect(keysOf(await storage.list("public/sort/", { sortBy: { column: "name", order: "desc" } }))).toEqual([
        "public/sort/c.txt",
        "public/sort/b.txt",
        "public/sort/a.txt",
      ]);
    });

    it("copies, with and without overwrite", async () => {
      await storage.save("private/from.txt", Buffer.from("data"));
      await storage.save("public/taken.txt", Buffer.from("taken"));
      await storage.copy("private/from.txt", "public/copy.txt");
      expect(await text(await storage.readStream("public/copy.txt"))).toBe("data");
      expect(await text(await storage.readStream("private/from.txt"))).toBe("data");
      expect((await caught(storage.copy("private/from.txt", "public/taken.txt"))).code).toBe("exists");
      expect(await text(await storage.readStream("public/taken.txt"))).toBe("taken");
      await storage.copy("private/from.txt", "public/taken.txt", { overwrite: true });
      expect(await text(await storage.readStream("public/taken.txt"))).toBe("data");
      const missing = await caught(storage.copy("public/nothing.txt", "public/y.txt"));
      expect([missing.code, missing.message]).toEqual(["not_found", 'No file at "public/nothing.txt"']);
      expect(await storage.stat("public/y.txt")).toBeNull();
    });

    it("moves, with and without overwrite", async () => {
      await storage.save("private/from.txt", Buffer.from("data"));
      await storage.save("public/taken.txt", Buffer.from("taken"));
      await storage.move("private/from.txt", "private/moved/to.txt");
      expect(await storage.stat("private/from.txt")).toBeNull();
      expect(await text(await storage.readStream("private/moved/to.txt"))).toBe("data");
      expect((await caught(storage.move("private/moved/to.txt", "public/taken.txt"))).code).toBe("exists");
      expect(await text(await storage.readStream("private/moved/to.txt"))).toBe("data");
      expect((await caught(storage.move("private/moved/to.txt", "private/moved/to.txt"))).code).toBe("exists");
      await storage.move("private/moved/to.txt", "private/moved/to.txt", { overwrite: true });
      expect(await text(await storage.readStream("private/moved/to.txt"))).toBe("data");
      await storage.move("private/moved/to.txt", "public/taken.txt", { overwrite: true });
      expect(await storage.stat("private/moved/to.txt")).toBeNull();
      expect(await text(await storage.readStream("public/taken.txt"))).toBe("data");
      expect((await caught(storage.move("public/nothing.txt", "public/y.txt"))).code).toBe("not_found");
    });

    it("removes one key or many, ignoring missing ones", async () => {
      await storage.save("public/r/one.txt", Buffer.from("1"));
      await storage.save("public/r/two.txt", Buffer.from("2"));
      await storage.save("private/r/three.txt", Buffer.from("3"));
      await storage.remove("public/never-existed.txt");
      await storage.remove([]);
      await storage.remove("public/r/one.txt");
      expect(keysOf(await storage.list("public/"))).toEqual(["public/r/two.txt"]);
      await storage.remove(["public/r/two.txt", "private/r/three.txt", "public/r/one.txt", "private/gone.txt"]);
      expect(await storage.list("public/")).toEqual([]);
      expect(await storage.list("private/")).toEqual([]);
      expect((await caught(storage.readStream("public/r/two.txt"))).code).toBe("not_found");
    });

    it("gives every file the content type of its name and the cache policy of its area", async () => {
      await storage.save("public/images/x/320-abc.avif", Buffer.from("a"));
      await storage.save("public/videos/v.mp4", Readable.from([Buffer.from("v")]));
      await storage.save("private/originals/o.jpg", Buffer.from("o"));
      await storage.save("public/site/file.bin", Buffer.from("b"));
      await storage.copy("private/originals/o.jpg", "public/images/x/o.jpg");
      await storage.save("private/originals/o.jpg", Buffer.from("p"), { overwrite: true });
      await storage.move("public/videos/v.mp4", "private/v.webm");
      const expected: [string, string, string][] = [
        ["public/images/x/320-abc.avif", "image/avif", PUBLIC_MEDIA_CACHE_CONTROL],
        ["private/originals/o.jpg", "image/jpeg", PRIVATE_MEDIA_CACHE_CONTROL],
        ["public/site/file.bin", "application/octet-stream", PUBLIC_MEDIA_CACHE_CONTROL],
        ["public/images/x/o.jpg", "image/jpeg", PUBLIC_MEDIA_CACHE_CONTROL],
        ["private/v.webm", "video/webm", PRIVATE_MEDIA_CACHE_CONTROL],
      ];
      for (const [key, contentType, cacheControl] of expected) {
        expect(await harness.headersOf(storage, key), key).toEqual({ contentType, cacheControl });
      }
    });

    it("signs private URLs that the site answers until they expire, for that key only", async () => {
      await storage.save("private/originals/a.jpg", Buffer.from("original"));
      const signed = storage.signedUrl("private/originals/a.jpg", 60);
      const url = new URL(signed, "http://x");
      expect(url.pathname).toBe("/media-private/originals/a.jpg");
      const expires = url.searchParams.get("expires");
      const sig = url.searchParams.get("sig");
      expect(storage.verifySignature("private/originals/a.jpg", expires, sig)).toBe(true);
      expect(storage.verifySignature("private/originals/b.jpg", expires, sig)).toBe(false);
      expect(storage.verifySignature("private/originals/a.jpg", String(Number(expires) + 1), sig)).toBe(false);
      expect(storage.verifySignature("private/originals/a.jpg", expires, `${sig}x`)).toBe(false);
      expect(storage.verifySignature("private/originals/a.jpg", expires, null)).toBe(false);
      // Expired: checked as if 61 seconds later.
      expect(storage.verifySignature("private/originals/a.jpg", expires, sig, Date.now() + 61_000)).toBe(false);
      // Another secret does not accept it.
      expect(harness.open("other-secret").verifySignature("private/originals/a.jpg", expires, sig)).toBe(false);
      expect(() => storage.signedUrl("public/a.jpg", 60)).toThrow(/not a private key/);

      const served = await getThroughSite(storage, signed);
      expect([served.status, served.body]).toEqual([200, "original"]);
      expect(served.headers.get("cache-control")).toBe(PRIVATE_MEDIA_CACHE_CONTROL);
      const forged = await getThroughSite(storage, signed.replace("a.jpg", "b.jpg"));
      expect(forged.status).toBe(403);
    });

    it("serves public files and byte ranges through the site", async () => {
      await storage.save("public/videos/clip.mp4", Buffer.from("0123456789"));
      const whole = await getThroughSite(storage, publicUrl("public/videos/clip.mp4"));
      expect([whole.status, whole.body, whole.headers.get("content-type")]).toEqual([200, "0123456789", "video/mp4"]);
      expect(whole.headers.get("cache-control")).toBe(PUBLIC_MEDIA_CACHE_CONTROL);
      const part = await getThroughSite(storage, "/media/videos/clip.mp4", { Range: "bytes=2-4" });
      expect([part.status, part.body, part.headers.get("content-range")]).toEqual([206, "234", "bytes 2-4/10"]);
      expect((await getThroughSite(storage, "/media/videos/none.mp4")).status).toBe(404);
    });
  });
}
