import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeStorageContract, getThroughSite } from "#tests/support/storage-contract.ts";
import { assertValidKey, createLocalStorage, type FileStorage, publicUrl, StorageError } from "./storage.server.ts";

let contractRoot = "";

// The local disk keeps no headers with a file: the site sends them as it serves it (app/web/serve-media.server.ts),
// so that is where they are read back.
describeStorageContract("local disk", {
  setUp() {
    contractRoot = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-storage-"));
  },
  tearDown() {
    fs.rmSync(contractRoot, { recursive: true, force: true });
  },
  open: (secret) => createLocalStorage({ root: contractRoot, secret }),
  async headersOf(storage, key) {
    const address = key.startsWith("private/") ? storage.signedUrl(key, 60) : publicUrl(key);
    const answer = await getThroughSite(storage, address);
    expect(answer.status, key).toBe(200);
    return { contentType: answer.headers.get("content-type"), cacheControl: answer.headers.get("cache-control") };
  },
});

describe("local file storage, on the disk", () => {
  let root: string;
  let storage: FileStorage;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-storage-"));
    storage = createLocalStorage({ root, secret: "test-secret" });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("keeps a key's file at the same path under the root", async () => {
    await storage.save("public/a/one.txt", Buffer.from("hello"));
    await storage.save("private/two.txt", Readable.from([Buffer.from("str"), Buffer.from("eam")]));
    expect(fs.readFileSync(path.join(root, "public/a/one.txt"), "utf8")).toBe("hello");
    expect(fs.readFileSync(path.join(root, "private/two.txt"), "utf8")).toBe("stream");
  });

  it("leaves no temp file behind when the source fails midway", async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.from("partial"));
        this.destroy(new Error("connection lost"));
      },
    });
    await expect(storage.save("public/broken.bin", failing)).rejects.toThrow("connection lost");
    expect(fs.existsSync(path.join(root, "public/broken.bin"))).toBe(false);
    expect(fs.readdirSync(path.join(root, ".tmp"))).toEqual([]);
  });

  it("checks keys without touching the disk", () => {
    for (const key of ["../etc/passwd", "public//x", "other/x.txt", "public", "public/.hidden"]) {
      expect(() => assertValidKey(key), key).toThrow(StorageError);
    }
    expect(() => assertValidKey("public/images/abc-123_x.avif")).not.toThrow();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it("maps public keys to /media URLs", () => {
    expect(publicUrl("public/images/x/320-abc.avif")).toBe("/media/images/x/320-abc.avif");
    expect(() => publicUrl("private/a.jpg")).toThrow(StorageError);
  });
});
