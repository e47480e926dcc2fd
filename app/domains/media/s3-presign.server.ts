import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
// The signer the S3 client itself signs with (a dependency of @aws-sdk/client-s3): what
// @aws-sdk/s3-request-presigner wraps, used here directly so that no package is added for the bench's redirect.
import { SignatureV4 } from "@smithy/signature-v4";
import type { S3StorageSettings } from "#app/lib/env.server.ts";

/** Where the object is, and the key pair that signs (s3-storage.server.ts's S3Location). */
type Location = S3StorageSettings & { credentials: { accessKeyId: string; secretAccessKey: string } };

/** SHA-256, or its HMAC with a key, in the shape the signer asks for (`@smithy/types`' Checksum). */
class Sha256 {
  private hash: Hash | Hmac;
  private readonly secret?: string | ArrayBuffer | ArrayBufferView;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.secret = secret;
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    if (this.secret === undefined) return createHash("sha256");
    const key = typeof this.secret === "string" ? this.secret : Buffer.from(this.secret as ArrayBuffer);
    return createHmac("sha256", key);
  }
  update(data: Uint8Array | string): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

/** The object's address on the bucket's endpoint: path style (`endpoint/bucket/key`) or the bucket's own host. */
function objectAddress(location: Location, objectKey: string): URL {
  const path = objectKey.split("/").map(encodeURIComponent).join("/");
  if (location.endpoint) {
    const endpoint = new URL(location.endpoint);
    if (location.forcePathStyle) return new URL(`${endpoint.origin}/${location.bucket}/${path}`);
    return new URL(`${endpoint.protocol}//${location.bucket}.${endpoint.host}/${path}`);
  }
  return new URL(`https://${location.bucket}.s3.${location.region}.amazonaws.com/${path}`);
}

/**
 * A presigned GET of one object (AWS Signature Version 4 in the query string), valid `expiresInSeconds` from
 * `signingDate`: the same URL for the same date, so that signing bucketed in time gives a URL a cache can keep.
 */
export async function presignGetUrl(
  location: Location,
  objectKey: string,
  expiresInSeconds: number,
  signingDate: Date = new Date(),
): Promise<string> {
  const address = objectAddress(location, objectKey);
  const signer = new SignatureV4({
    service: "s3",
    region: location.region,
    credentials: location.credentials,
    sha256: Sha256,
    // S3 signs the path as sent, without escaping it a second time.
    uriEscapePath: false,
  });
  const signed = await signer.presign(
    {
      method: "GET",
      protocol: address.protocol,
      hostname: address.hostname,
      port: address.port ? Number(address.port) : undefined,
      path: address.pathname,
      query: {},
      // As S3's presigner does: the body is not part of the signature, and the host is.
      headers: { host: address.host, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
    },
    { expiresIn: expiresInSeconds, signingDate },
  );
  for (const [name, value] of Object.entries(signed.query ?? {})) {
    if (typeof value === "string") address.searchParams.set(name, value);
  }
  return address.href;
}
