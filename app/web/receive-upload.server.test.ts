import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UploadError } from "#app/domains/media/upload.server.ts";
import { receiveUpload } from "./receive-upload.server.ts";

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

  it("recognises each file by its first bytes as it arrives, whatever its name or declared type says", async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.alloc(12)]);
    const request = await multipart([
      { name: "a", value: new Blob([png], { type: "video/mp4" }), filename: "clip.mp4" },
      { name: "b", value: new Blob([mp4], { type: "image/jpeg" }), filename: "photo.jpg" },
      {
        name: "c",
        value: new Blob([Buffer.from("<svg><script>1</script></svg>")], { type: "image/png" }),
        filename: "x.png",
      },
    ]);
    const upload = await receiveUpload(request, { maxBytes: 1024 * 1024, maxFiles: 3, tempDir });
    const recognised = Object.fromEntries(upload.files.map((file) => [file.fieldName, file.recognised]));
    expect(recognised).toEqual({ a: "png", b: "mp4", c: null });
    await upload.cleanup();
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
