import { createHash, createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3Server, type TestS3Server } from "#tests/support/s3rver-process.ts";
import { createS3Storage, type S3FileStorage } from "./s3-storage.server.ts";

// The bench's redirect (decision 012): a public object's own signed address. s3rver reads a signed query but does not
// check a version 4 signature, so the signature is worked out here as AWS documents it ("Authenticating Requests:
// Using Query Parameters (AWS Signature Version 4)") and compared.

const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);

/** The signature AWS expects for a presigned GET of this URL, with the secret key. */
function expectedSignature(url: URL, secretKey: string): string {
  const query = [...url.searchParams]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [encode(name), encode(value)])
    .sort(([a = ""], [b = ""]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonical = ["GET", url.pathname, query, `host:${url.host}`, "", "host", "UNSIGNED-PAYLOAD"].join("\n");
  const date = url.searchParams.get("X-Amz-Date") ?? "";
  const scope = `${date.slice(0, 8)}/us-east-1/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", date, scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
  const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();
  const key = ["us-east-1", "s3", "aws4_request"].reduce(hmac, hmac(`AWS4${secretKey}`, date.slice(0, 8)));
  return createHmac("sha256", key).update(toSign).digest("hex");
}

let server: TestS3Server;
let storage: S3FileStorage;

beforeAll(async () => {
  server = await startS3Server();
  storage = createS3Storage({ ...server.location("signed"), secret: "s" });
  await storage.save("public/images/a/320-0123456789abcdef.avif", Buffer.from("the picture's bytes"));
  await storage.save("private/originals/a.jpg", Buffer.from("the original"));
});
afterAll(async () => {
  storage?.close();
  await server?.stop();
});

describe("a signed address of a public object in the bucket", () => {
  it("fetches the object from the bucket itself, for the time it was signed for", async () => {
    const url = new URL(await storage.signedObjectUrl("public/images/a/320-0123456789abcdef.avif", 600));
    expect(url.origin).toBe(server.endpoint);
    expect(url.pathname).toBe(`/${server.bucket}/signed/public/images/a/320-0123456789abcdef.avif`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
      "X-Amz-Expires": "600",
      "X-Amz-SignedHeaders": "host",
      "X-Amz-Credential": expect.stringMatching(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/),
      "X-Amz-Signature": expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(url.searchParams.get("X-Amz-Signature")).toBe(expectedSignature(url, "S3RVER"));
    expect(url.href).not.toContain("S3RVER/S3RVER");
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("the picture's bytes");
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("is the same address for the same signing time (signing bucketed in time), another for another", async () => {
    const key = "public/images/a/320-0123456789abcdef.avif";
    const hour = new Date("2026-01-01T10:00:00Z");
    const first = await storage.signedObjectUrl(key, 7200, hour);
    expect(await storage.signedObjectUrl(key, 7200, hour)).toBe(first);
    expect(await storage.signedObjectUrl(key, 7200, new Date("2026-01-01T11:00:00Z"))).not.toBe(first);
    expect(new URL(first).searchParams.get("X-Amz-Date")).toBe("20260101T100000Z");
  });

  it("is never made for a private file", async () => {
    await expect(storage.signedObjectUrl("private/originals/a.jpg", 60)).rejects.toThrow(/not a public key/);
    await expect(storage.signedObjectUrl("public/../private/originals/a.jpg", 60)).rejects.toThrow(/Invalid/);
  });
});
