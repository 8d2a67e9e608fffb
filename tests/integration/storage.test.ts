import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLocalStorage,
  createS3Storage,
  InvalidStorageKeyError,
  readAll,
  setStorage,
  storage,
  type StorageDriver,
} from "~/lib/storage.server";
import { resetEnvForTests } from "~/lib/env.server";
import { startLocalS3, type LocalS3 } from "../support/s3-server";

/*
 * The same contract, run against the local-disk driver and against a real S3-compatible
 * server (s3rver) started by this file.
 */

const PNG_BYTES = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

function contract(name: string, makeDriver: () => StorageDriver) {
  describe(name, () => {
    let driver: StorageDriver;
    beforeAll(() => {
      driver = makeDriver();
    });

    it("stores bytes and serves them back with the stored Content-Type", async () => {
      await driver.put("request-photos/r1/a.png", PNG_BYTES, "image/png");
      const object = await driver.get("request-photos/r1/a.png");
      expect(object).not.toBeNull();
      expect(object!.contentType).toBe("image/png");
      expect(object!.size).toBe(PNG_BYTES.length);
      expect(await readAll(object!)).toEqual(PNG_BYTES);
    });

    it("overwrites an existing key", async () => {
      await driver.put("profile-photos/u1/profile.jpg", Buffer.from("first"), "image/jpeg");
      await driver.put("profile-photos/u1/profile.jpg", Buffer.from("second!"), "image/webp");
      const object = await driver.get("profile-photos/u1/profile.jpg");
      expect(object!.contentType).toBe("image/webp");
      expect((await readAll(object!)).toString()).toBe("second!");
    });

    it("answers null for a missing key", async () => {
      expect(await driver.get("request-photos/none/missing.jpg")).toBeNull();
    });

    it("deletes one object, and deleting it again is fine", async () => {
      await driver.put("request-photos/r2/x.jpg", Buffer.from("x"), "image/jpeg");
      await driver.put("request-photos/r2/y.jpg", Buffer.from("y"), "image/jpeg");
      await driver.delete("request-photos/r2/x.jpg");
      await driver.delete("request-photos/r2/x.jpg");
      expect(await driver.get("request-photos/r2/x.jpg")).toBeNull();
      expect(await driver.list("request-photos/r2/")).toEqual(["request-photos/r2/y.jpg"]);
    });

    it("deletes everything under a prefix and nothing else", async () => {
      for (const key of ["a.jpg", "b.jpg", "c.thumb.webp"]) {
        await driver.put(`request-photos/r3/${key}`, Buffer.from(key), "image/jpeg");
      }
      await driver.put("request-photos/r30/keep.jpg", Buffer.from("keep"), "image/jpeg");
      expect(await driver.list("request-photos/r3/")).toHaveLength(3);
      await driver.deletePrefix("request-photos/r3/");
      expect(await driver.list("request-photos/r3/")).toEqual([]);
      expect(await driver.list("request-photos/r30/")).toEqual(["request-photos/r30/keep.jpg"]);
    });

    it("refuses keys that could escape or confuse the store", async () => {
      for (const key of [
        "../etc/passwd",
        "/absolute.jpg",
        "a/../../b.jpg",
        "a//b.jpg",
        "a\\b.jpg",
        "a/b.jpg.meta.json",
        "",
        "a/ b.jpg",
        "a/\0.jpg",
      ]) {
        await expect(driver.put(key, Buffer.from("x"), "image/jpeg"), key).rejects.toThrow(
          InvalidStorageKeyError,
        );
        await expect(driver.get(key), key).rejects.toThrow(InvalidStorageKeyError);
      }
      await expect(driver.deletePrefix("request-photos")).rejects.toThrow(InvalidStorageKeyError);
      await expect(driver.deletePrefix("../")).rejects.toThrow(InvalidStorageKeyError);
    });
  });
}

const localRoot = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-storage-"));
afterAll(() => fs.rmSync(localRoot, { recursive: true, force: true }));

contract("local disk driver", () => createLocalStorage(localRoot));

describe("local disk driver on disk", () => {
  it("keeps files under the root and leaves no empty folders behind", async () => {
    const driver = createLocalStorage(localRoot);
    await driver.put("request-photos/r9/only.jpg", Buffer.from("z"), "image/jpeg");
    expect(fs.existsSync(path.join(localRoot, "request-photos", "r9", "only.jpg"))).toBe(true);
    await driver.delete("request-photos/r9/only.jpg");
    expect(fs.existsSync(path.join(localRoot, "request-photos", "r9"))).toBe(false);
  });
});

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.stop();
});

contract("S3 driver (s3rver)", () =>
  createS3Storage({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  }),
);

describe("driver selection", () => {
  it("uses DATA_DIR/uploads by default and S3 when S3_BUCKET is set", async () => {
    const saved = { ...process.env };
    try {
      process.env.DATA_DIR = localRoot;
      delete process.env.S3_BUCKET;
      resetEnvForTests();
      setStorage(undefined);
      expect(storage().kind).toBe("local");
      await storage().put("request-photos/sel/a.jpg", Buffer.from("a"), "image/jpeg");
      expect(fs.existsSync(path.join(localRoot, "uploads", "request-photos", "sel", "a.jpg"))).toBe(
        true,
      );

      Object.assign(process.env, {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      });
      resetEnvForTests();
      setStorage(undefined);
      expect(storage().kind).toBe("s3");
      await storage().put("request-photos/sel/b.jpg", Buffer.from("b"), "image/jpeg");
      expect(await storage().list("request-photos/sel/")).toEqual(["request-photos/sel/b.jpg"]);
    } finally {
      process.env = saved;
      resetEnvForTests();
      setStorage(undefined);
    }
  });
});
