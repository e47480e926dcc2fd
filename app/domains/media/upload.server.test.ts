import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { detectImageType, detectVideoType, receiveUpload, storageProblemOf, UploadError } from "./upload.server.ts";

/**
 * A multipart request whose body is already encoded, as a server receives it. (With the FormData itself as the
 * body, undici encodes it while it is read; when receiveUpload stops reading early, undici's encoder then
 * writes into the cancelled stream and throws an unhandled rejection.)
 */
async function multipart(parts: { name: string; value: string | Blob; filename?: string }[]): Promise<Request> {
  const form = new FormData();
  for (const part of parts) {
    if (typeof part.value === "string") form.append(part.name, part.value);
    else form.append(part.name, part.value, part.filename);
  }
  const encoded = new Response(form);
  return new Request("http://localhost/admin/uploads/test", {
    method: "POST",
    body: await encoded.arrayBuffer(),
    headers: { "Content-Type": encoded.headers.get("Content-Type") ?? "" },
  });
}

describe("receiveUpload", () => {
  let tempDir: string;
  beforeEach(() => {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-upload-"));
  });
  afterEach(() => fs.rmSync(tempDir, { recursive: true, force: true }));

  it("streams files into temp files and keeps only the named text fields", async () => {
    const bytes = Buffer.alloc(300_000, 7);
    const request = await multipart([
      { name: "title", value: "Sunset" },
      { name: "ignored", value: "x" },
      { name: "file", value: new Blob([bytes], { type: "image/jpeg" }), filename: "../../holiday.jpg" },
    ]);
    const upload = await receiveUpload(request, { maxBytes: 1024 * 1024, fields: ["title"], tempDir });
    expect(upload.fields).toEqual({ title: "Sunset" });
    expect(upload.files).toHaveLength(1);
    const [file] = upload.files;
    expect(file).toMatchObject({ fieldName: "file", originalName: "holiday.jpg", size: 300_000 });
    expect(path.dirname(file?.path ?? "")).toBe(tempDir);
    expect(fs.readFileSync(file?.path ?? "").equals(bytes)).toBe(true);
    await upload.cleanup();
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it("reads a file's name as the UTF-8 browsers send, cleaned by the shared text rule", async () => {
    const names: [string, string][] = [
      ["Frühling 😀.jpg", "Frühling 😀.jpg"],
      ["Cafe\u0301\u0085.jpg", "Café.jpg"],
      [`${"ä".repeat(200)}.jpg`, "ä".repeat(120)],
    ];
    for (const [sent, shown] of names) {
      const request = await multipart([{ name: "file", value: new Blob([Buffer.alloc(10, 1)]), filename: sent }]);
      const upload = await receiveUpload(request, { maxBytes: 1024, tempDir });
      expect(upload.files[0]?.originalName).toBe(shown);
      await upload.cleanup();
    }
  });

  it("refuses a file over the limit with a 413 naming it, and leaves no temp file", async () => {
    const request = await multipart([
      { name: "file", value: new Blob([Buffer.alloc(2 * 1024 * 1024 + 10)]), filename: "big.jpg" },
    ]);
    // The declared length passes the early check (two files allowed); the per-file limit stops the stream.
    const refused = receiveUpload(request, { maxBytes: 2 * 1024 * 1024, maxFiles: 2, tempDir });
    await expect(refused).rejects.toBeInstanceOf(UploadError);
    await expect(refused).rejects.toMatchObject({ status: 413, message: expect.stringMatching(/^big\.jpg: .*2 MB/) });
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it("refuses a body far larger than allowed before reading it", async () => {
    const request = await multipart([
      { name: "file", value: new Blob([Buffer.alloc(5 * 1024 * 1024)]), filename: "a.jpg" },
    ]);
    await expect(receiveUpload(request, { maxBytes: 1024 * 1024, tempDir })).rejects.toMatchObject({ status: 413 });
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it("refuses more files than allowed, and removes the ones already written", async () => {
    const request = await multipart([
      { name: "file", value: new Blob(["one"]), filename: "1.jpg" },
      { name: "file", value: new Blob(["two"]), filename: "2.jpg" },
    ]);
    await expect(receiveUpload(request, { maxBytes: 1024, maxFiles: 1, tempDir })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/Too many files/),
    });
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });

  it("refuses a body that is not multipart", async () => {
    const request = new Request("http://localhost/x", {
      method: "POST",
      body: "a=b",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    await expect(receiveUpload(request, { maxBytes: 1024, tempDir })).rejects.toMatchObject({ status: 400 });
  });

  it("refuses a truncated multipart body and cleans up", async () => {
    const boundary = "----vitrine";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${"x".repeat(1000)}`;
    const request = new Request("http://localhost/x", {
      method: "POST",
      body,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    await expect(receiveUpload(request, { maxBytes: 1024 * 1024, tempDir })).rejects.toBeInstanceOf(UploadError);
    expect(fs.readdirSync(tempDir)).toEqual([]);
  });
});

describe("content sniffing", () => {
  const make = (format: "jpeg" | "png" | "webp" | "avif" | "gif") =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } })
      .toFormat(format)
      .toBuffer();

  it("recognises images by their bytes, whatever they are called", async () => {
    for (const format of ["jpeg", "png", "webp", "avif", "gif"] as const) {
      expect(await detectImageType(await make(format)), format).toBe(format);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-sniff-"));
    const file = path.join(dir, "photo.txt");
    fs.writeFileSync(file, await make("png"));
    expect(await detectImageType(file)).toBe("png");
    fs.rmSync(dir, { recursive: true });
  });

  it("refuses SVG, text, HEIC-like and empty input", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await detectImageType(svg)).toBeNull();
    expect(await detectImageType(Buffer.from("just some text pretending to be a .jpg"))).toBeNull();
    expect(await detectImageType(Buffer.alloc(0))).toBeNull();
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic"), Buffer.alloc(12)]);
    expect(await detectImageType(heic)).toBeNull();
    expect(await detectVideoType(heic)).toBeNull();
  });

  it("recognises MP4 and WebM by their bytes, and nothing else as video", async () => {
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 32]),
      Buffer.from("ftypisom"),
      Buffer.alloc(4),
      Buffer.from("isomiso2avc1mp41"),
    ]);
    expect(await detectVideoType(mp4)).toBe("mp4");
    const webm = Buffer.concat([
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
      Buffer.from("webm"),
      Buffer.alloc(8),
    ]);
    expect(await detectVideoType(webm)).toBe("webm");
    expect(await detectVideoType(await make("avif"))).toBeNull();
    expect(await detectVideoType(await make("jpeg"))).toBeNull();
    expect(await detectVideoType(Buffer.from("not a video"))).toBeNull();
  });
});

describe("telling a disk that refuses writes from other failures", () => {
  const failure = (code: string) => Object.assign(new Error(`${code}: refused, write`), { code });

  it("calls a full disk or quota full, and a read-only or unwritable one read-only, also as a cause", () => {
    expect(storageProblemOf(failure("ENOSPC"))).toBe("full");
    expect(storageProblemOf(failure("EDQUOT"))).toBe("full");
    expect(storageProblemOf(failure("EROFS"))).toBe("read-only");
    expect(storageProblemOf(failure("EACCES"))).toBe("read-only");
    expect(storageProblemOf(new Error("saving the original failed", { cause: failure("ENOSPC") }))).toBe("full");
  });

  it("leaves everything else to the caller", () => {
    expect(storageProblemOf(failure("ENOENT"))).toBeNull();
    expect(storageProblemOf(new UploadError(413, "too large"))).toBeNull();
    expect(storageProblemOf("ENOSPC")).toBeNull();
    expect(storageProblemOf(undefined)).toBeNull();
  });
});
