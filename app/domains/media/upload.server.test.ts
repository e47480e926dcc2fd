import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectImageType, recogniseMedia, storageProblemOf, UploadError } from "./upload.server.ts";

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
    expect(recogniseMedia(heic)).toBeNull();
  });

  it("recognises MP4 and WebM by their bytes, and nothing else as video", async () => {
    const mp4 = Buffer.concat([
      Buffer.from([0, 0, 0, 32]),
      Buffer.from("ftypisom"),
      Buffer.alloc(4),
      Buffer.from("isomiso2avc1mp41"),
    ]);
    expect(recogniseMedia(mp4)).toBe("mp4");
    const webm = Buffer.concat([
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]),
      Buffer.from("webm"),
      Buffer.alloc(8),
    ]);
    expect(recogniseMedia(webm)).toBe("webm");
    // An AVIF picture is an ISO-BMFF file too: recognised as the picture it is, not as a video.
    expect(recogniseMedia(await make("avif"))).toBe("avif");
    expect(recogniseMedia(await make("jpeg"))).toBe("jpeg");
    expect(recogniseMedia(Buffer.from("not a video"))).toBeNull();
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
