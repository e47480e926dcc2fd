import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "#app/lib/env.server.ts";
import { startS3Server, type TestS3Server } from "#tests/support/s3rver-process.ts";
import { checkStorage, createStorage, describeStorage } from "./storage-choice.server.ts";

/** A loopback port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const SECRET = "wJalrXUtnFEMI-secret-example";
const keys = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

describe("the storage the configuration names", () => {
  let server: TestS3Server;
  let dataDir: string;
  beforeAll(async () => {
    server = await startS3Server("start-check");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vitrine-storage-choice-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is the local disk under DATA_DIR/storage without STORAGE_URL, and needs no check", async () => {
    const env = parseEnv({ DATA_DIR: dataDir });
    await checkStorage(env);
    await createStorage(env, "s").save("public/here.txt", Buffer.from("here"));
    expect(fs.readFileSync(path.join(dataDir, "storage/public/here.txt"), "utf8")).toBe("here");
    expect(describeStorage(env)).toEqual({ storage: "local", root: path.join(dataDir, "storage") });
  });

  it("is the bucket of STORAGE_URL, checked at start", async () => {
    const env = parseEnv({
      DATA_DIR: dataDir,
      STORAGE_URL: `s3://start-check/site?endpoint=${server.endpoint}&forcePathStyle=true`,
      ...keys,
    });
    await checkStorage(env);
    const storage = createStorage(env, "s");
    try {
      await storage.save("public/there.txt", Buffer.from("there"));
      expect(await storage.stat("public/there.txt")).toMatchObject({ size: 5 });
      expect(fs.existsSync(path.join(dataDir, "storage/public/there.txt"))).toBe(false);
    } finally {
      (storage as { close?: () => void }).close?.();
    }
    expect(describeStorage(env)).toEqual({
      storage: "s3",
      bucket: "start-check",
      prefix: "site",
      region: "us-east-1",
      endpoint: server.endpoint,
    });
  });

  it("stops the start with one line when the endpoint does not answer, naming it and never the secret", async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const env = parseEnv({
      STORAGE_URL: `s3://my-bucket?endpoint=${endpoint}&forcePathStyle=true`,
      AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
      AWS_SECRET_ACCESS_KEY: SECRET,
    });
    const error = await checkStorage(env).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    expect(message).toBe(`Storage unavailable (STORAGE_URL): ${endpoint} could not be reached (ECONNREFUSED)`);
    expect(message).not.toContain(SECRET);
  });

  it("stops the start with one line when the bucket is missing or the key pair is refused", async () => {
    const url = (bucket: string) => `s3://${bucket}?endpoint=${server.endpoint}&forcePathStyle=true`;
    await expect(checkStorage(parseEnv({ STORAGE_URL: url("no-such-bucket"), ...keys }))).rejects.toThrow(
      `Storage unavailable (STORAGE_URL): the bucket "no-such-bucket" at ${server.endpoint} does not exist`,
    );
    const refused = checkStorage(
      parseEnv({ STORAGE_URL: url("start-check"), AWS_ACCESS_KEY_ID: "NOPE", AWS_SECRET_ACCESS_KEY: SECRET }),
    );
    await expect(refused).rejects.toThrow(/^Storage unavailable \(STORAGE_URL\): .* refused access \(403\): check/);
    await expect(refused).rejects.not.toThrow(SECRET);
  });

  it("gives up on an endpoint that never answers after the time allowed", async () => {
    // A server that accepts the connection and says nothing.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const env = parseEnv({ STORAGE_URL: `s3://my-bucket?endpoint=http://127.0.0.1:${port}`, ...keys });
      await expect(checkStorage(env, 300)).rejects.toThrow(
        `Storage unavailable (STORAGE_URL): http://127.0.0.1:${port} did not answer within 0.3 s`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
