import net from "node:net";
import { S3RVER_CREDENTIALS } from "./s3rver-process.ts";

export type CountingRelay = {
  /** The address to give the server instead of the bucket's. */
  endpoint: string;
  /** Bytes that came back from the bucket so far. */
  received(): number;
  /** Requests sent to the bucket so far whose request line starts with this text (e.g. `HEAD /bucket `). */
  requests(startingWith: string): number;
  /** Connections open through the relay now. */
  open(): number;
  close(): Promise<void>;
};

/**
 * A TCP relay to a bucket server on `port`, between a server under test and it: counts the bytes coming back (a
 * range must not fetch the whole file), the requests going out (a probe must not ask on every call) and the
 * connections held (a stopped runtime holds none). The bucket server behind it may stop and start again.
 */
export async function startCountingRelay(port: number): Promise<CountingRelay> {
  let received = 0;
  let sent = "";
  const clients = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    clients.add(client);
    client.on("close", () => clients.delete(client));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.on("close", () => client.destroy());
    upstream.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    client.on("data", (chunk: Buffer) => {
      // Only the start of each chunk can be a request line; bodies (uploads) are not kept.
      sent += `${chunk.subarray(0, 200).toString("latin1")}\n`;
    });
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`,
    received: () => received,
    requests: (startingWith) => sent.split("\n").filter((line) => line.startsWith(startingWith)).length,
    open: () => clients.size,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

/** The environment of a server keeping its files in `bucket` under `prefix`, reached at `endpoint` (s3rver's keys). */
export function bucketEnv(bucket: string, endpoint: string, prefix = "site"): Record<string, string> {
  const query = new URLSearchParams({ endpoint, region: "us-east-1", forcePathStyle: "true" });
  return {
    STORAGE_URL: `s3://${bucket}/${prefix}?${query}`,
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  };
}
