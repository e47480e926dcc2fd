import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertValidKey, createLocalStorage, type FileStorage, publicUrl, StorageError } from "./storage.server.ts";

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

describe("local file storage", () => {
  let root: string;
  let storage: FileStorage;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-storage-"));
    storage = createLocalStorage({ root, secret: "test-secret" });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("saves buffers and streams under public/ and private/ and reads them back", async () => {
    const saved = await storage.save("public/a/one.txt", Buffer.from("hello"));
    expect(saved).toMatchObject({ key: "public/a/one.txt", size: 5 });
    await storage.save("private/two.txt", Readable.from([Buffer.from("str"), Buffer.from("eam")]));
    expect(fs.readFileSync(path.join(root, "public/a/one.txt"), "utf8")).toBe("hello");
    expect(await text(await storage.readStream("private/two.txt"))).toBe("stream");
    expect(await text(await storage.readStream("public/a/one.txt", { start: 1, end: 3 }))).toBe("ell");
  });

  it("does not overwrite unless asked", async () => {
    await storage.save("public/x.txt", Buffer.from("first"));
    const refused = storage.save("public/x.txt", Buffer.from("second"));
    await expect(refused).rejects.toThrow(StorageError);
    await expect(refused).rejects.toThrow(/already exists/);
    expect(await text(await storage.readStream("public/x.txt"))).toBe("first");
    await storage.save("public/x.txt", Buffer.from("second"), { overwrite: true });
    expect(await text(await storage.readStream("public/x.txt"))).toBe("second");
  });

  it("never leaves half a file under the final name when the source fails midway", async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from("partial"));
        this.destroy(new Error("connection lost"));
      },
    });
    await expect(storage.save("public/broken.bin", failing)).rejects.toThrow("connection lost");
    expect(await storage.stat("public/broken.bin")).toBeNull();
    expect(fs.existsSync(path.join(root, "public/broken.bin"))).toBe(false);
    // And no temp file is left behind either.
    expect(fs.readdirSync(path.join(root, ".tmp"))).toEqual([]);
  });

  it("refuses keys that could leave the storage or name no area", async () => {
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
      expect(() => assertValidKey(key), key).toThrow(StorageError);
      await expect(storage.save(key, Buffer.from("x")), key).rejects.toThrow(/Invalid storage key/);
    }
    expect(() => assertValidKey("public/images/abc-123_x.avif")).not.toThrow();
  });

  it("stats, lists with name order, limit and offset, and other sort orders", async () => {
    expect(await storage.stat("public/none.txt")).toBeNull();
    await storage.save("public/list/b.txt", Buffer.from("bb"));
    await storage.save("public/list/a.txt", Buffer.from("aaa"));
    await storage.save("public/list/sub/c.txt", Buffer.from("c"));
    await storage.save("public/other.txt", Buffer.from("o"));
    expect((await storage.list("public/list/")).map((file) => file.key)).toEqual([
      "public/list/a.txt",
      "public/list/b.txt",
      "public/list/sub/c.txt",
    ]);
    expect((await storage.list("public/list/", { limit: 1, offset: 1 })).map((file) => file.key)).toEqual([
      "public/list/b.txt",
    ]);
    expect(
      (await storage.list("public/list/", { sortBy: { column: "size", order: "desc" } })).map((file) => file.size),
    ).toEqual([3, 2, 1]);
    expect((await storage.list("public/li")).length).toBe(3);
    expect(await storage.list("public/missing/")).toEqual([]);
    expect((await storage.stat("public/list/a.txt"))?.size).toBe(3);
  });

  it("moves, copies and removes", async () => {
    await storage.save("private/from.txt", Buffer.from("data"));
    await storage.copy("private/from.txt", "public/copy.txt");
    await storage.move("private/from.txt", "private/moved/to.txt");
    expect(await storage.stat("private/from.txt")).toBeNull();
    expect(await text(await storage.readStream("private/moved/to.txt"))).toBe("data");
    expect(await text(await storage.readStream("public/copy.txt"))).toBe("data");
    await expect(storage.copy("public/copy.txt", "private/moved/to.txt")).rejects.toThrow(/already exists/);
    await expect(storage.move("public/nothing.txt", "public/y.txt")).rejects.toThrow(/No file/);
    await storage.remove(["public/copy.txt", "private/moved/to.txt", "public/never-existed.txt"]);
    expect(await storage.list("public/")).toEqual([]);
    await expect(storage.readStream("public/copy.txt")).rejects.toThrow(/No file/);
  });

  it("signs private URLs that expire and cannot be reused for another key", async () => {
    const url = new URL(storage.signedUrl("private/originals/a.jpg", 60), "http://x");
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
    const other = createLocalStorage({ root, secret: "other-secret" });
    expect(other.verifySignature("private/originals/a.jpg", expires, sig)).toBe(false);
    expect(() => storage.signedUrl("public/a.jpg", 60)).toThrow(/not a private key/);
  });

  it("maps public keys to /media URLs", () => {
    expect(publicUrl("public/images/x/320-abc.avif")).toBe("/media/images/x/320-abc.avif");
    expect(() => publicUrl("private/a.jpg")).toThrow(StorageError);
  });
});
