// s3rver ships no types: only what tests/support/s3rver-process.ts uses (see node_modules/s3rver/lib/s3rver.js).
declare module "s3rver" {
  import type { Server } from "node:http";
  import type { AddressInfo } from "node:net";

  type S3rverOptions = {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  };

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    /** The listening server, once `run` answered. */
    httpServer?: Server;
    close(): Promise<void>;
  }
}
