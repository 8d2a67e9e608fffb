import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
// s3rver ships no type declarations; the few members used here are typed below.
// @ts-expect-error -- untyped CommonJS module
import S3rver from "s3rver";

/*
 * A real S3-compatible server (s3rver) on a free port with its own temporary directory,
 * for tests of the S3 storage driver.
 */

export type LocalS3 = {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Where s3rver keeps the objects (to check what is really stored). */
  directory: string;
  stop(): Promise<void>;
};

type S3rverInstance = {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};

export async function startLocalS3(bucket = "handyman-test"): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  }) as S3rverInstance;
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    // s3rver's fixed development credentials.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    region: "us-east-1",
    directory,
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
