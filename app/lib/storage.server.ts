import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type * as S3Sdk from "@aws-sdk/client-s3";
import { env } from "./env.server";

/*
 * Where uploaded files live (docs/design.md "file storage"): the local disk under DATA_DIR/uploads by
 * default, S3-compatible object storage when S3_BUCKET is set. Callers choose the keys
 * ("request-photos/<requestId>/<random>.jpg"); a key never contains a user's file name.
 */

export type StoredObject = {
  body: Readable;
  contentType: string;
  size: number;
};

export interface StorageDriver {
  readonly kind: "local" | "s3";
  /** Writes (or overwrites) one object. Readers never see a half-written object. */
  put(key: string, body: Buffer | Uint8Array, contentType: string): Promise<void>;
  /** The object and its stored Content-Type, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes one object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (which must end with "/"). */
  deletePrefix(prefix: string): Promise<void>;
  /** The keys under `prefix`, sorted (operations and tests). */
  list(prefix: string): Promise<string[]>;
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key)}`);
    this.name = "InvalidStorageKeyError";
  }
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
const META_SUFFIX = ".meta.json";

/** Keys are plain relative paths: no "..", no absolute paths, nothing a shell or S3 treats specially. */
export function assertValidKey(key: string) {
  if (
    key.length > 512 ||
    !KEY_PATTERN.test(key) ||
    key.split("/").some((segment) => segment === "." || segment === "..") ||
    key.endsWith(META_SUFFIX)
  ) {
    throw new InvalidStorageKeyError(key);
  }
}

function assertValidPrefix(prefix: string) {
  if (!prefix.endsWith("/")) throw new InvalidStorageKeyError(prefix);
  assertValidKey(prefix.slice(0, -1));
}

/* ---------------- Local disk ---------------- */

export function createLocalStorage(root: string): StorageDriver {
  const base = path.resolve(root);
  const fileFor = (key: string) => {
    assertValidKey(key);
    const file = path.join(base, ...key.split("/"));
    // Belt and braces: the key pattern already rules out escaping the root.
    if (!file.startsWith(base + path.sep)) throw new InvalidStorageKeyError(key);
    return file;
  };

  async function removeEmptyParents(file: string) {
    let dir = path.dirname(file);
    while (dir.startsWith(base + path.sep)) {
      try {
        await fs.promises.rmdir(dir);
      } catch {
        return; // not empty (or already gone)
      }
      dir = path.dirname(dir);
    }
  }

  async function writeAtomically(file: string, data: Buffer | Uint8Array | string) {
    const temp = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    await fs.promises.writeFile(temp, data, { mode: 0o600 });
    try {
      await fs.promises.rename(temp, file);
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
  }

  return {
    kind: "local",
    async put(key, body, contentType) {
      const file = fileFor(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // The Content-Type is kept beside the file, so it is served exactly as stored.
      await writeAtomically(file + META_SUFFIX, JSON.stringify({ contentType }));
      await writeAtomically(file, body);
    },
    async get(key) {
      const file = fileFor(key);
      let stat: fs.Stats;
      try {
        stat = await fs.promises.stat(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      if (!stat.isFile()) return null;
      let contentType = "application/octet-stream";
      try {
        const meta = JSON.parse(await fs.promises.readFile(file + META_SUFFIX, "utf8"));
        if (typeof meta.contentType === "string") contentType = meta.contentType;
      } catch {
        // A file without its metadata is served as opaque bytes.
      }
      return { body: fs.createReadStream(file), contentType, size: stat.size };
    },
    async delete(key) {
      const file = fileFor(key);
      await fs.promises.rm(file, { force: true });
      await fs.promises.rm(file + META_SUFFIX, { force: true });
      await removeEmptyParents(file);
    },
    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      const dir = path.join(base, ...prefix.slice(0, -1).split("/"));
      await fs.promises.rm(dir, { recursive: true, force: true });
      await removeEmptyParents(dir);
    },
    async list(prefix) {
      if (prefix !== "") assertValidPrefix(prefix);
      const dir = path.join(base, ...prefix.split("/").filter(Boolean));
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      return entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith(META_SUFFIX))
        .filter((entry) => !entry.name.endsWith(".tmp"))
        .map((entry) =>
          path.relative(base, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
        )
        .sort();
    },
  };
}

/* ---------------- S3-compatible object storage ---------------- */

export type S3StorageConfig = {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
};

export function createS3Storage(config: S3StorageConfig): StorageDriver {
  // The AWS SDK is loaded with the first object stored or read, not when the server starts: it
  // is a large module and most starts never touch the bucket (ADR 029).
  let ready: Promise<{ sdk: typeof S3Sdk; client: S3Sdk.S3Client }> | undefined;
  const s3 = () =>
    (ready ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        // Self-hosted S3-compatible servers (MinIO, Ceph, s3rver) address buckets by path.
        forcePathStyle: Boolean(config.endpoint),
        credentials:
          config.accessKeyId && config.secretAccessKey
            ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
            : undefined,
        // Many S3-compatible servers reject the SDK's default extra checksums.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    })));
  const Bucket = config.bucket;

  async function listKeys(prefix: string) {
    const { sdk, client } = await s3();
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }),
      );
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }

  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertValidKey(key);
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.byteLength,
        }),
      );
    },
    async get(key) {
      assertValidKey(key);
      const { sdk, client } = await s3();
      try {
        const result = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        if (!result.Body) return null;
        return {
          body: result.Body as Readable,
          contentType: result.ContentType ?? "application/octet-stream",
          size: result.ContentLength ?? 0,
        };
      } catch (error) {
        if (error instanceof sdk.NoSuchKey) return null;
        if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404) {
          return null;
        }
        throw error;
      }
    },
    async delete(key) {
      assertValidKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      const keys = await listKeys(prefix);
      const { sdk, client } = await s3();
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        const result = await client.send(
          new sdk.DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        if (result.Errors?.length) {
          throw new Error(
            `Could not delete ${result.Errors.length} object(s) under ${prefix}: ${result.Errors[0].Message}`,
          );
        }
      }
    },
    async list(prefix) {
      if (prefix !== "") assertValidPrefix(prefix);
      return listKeys(prefix);
    },
  };
}

/* ---------------- The process's driver ---------------- */

/*
 * Kept on globalThis like the database handle: the server (run from source) and the built
 * React Router bundle each have their own copy of this module.
 */
const globalKey = Symbol.for("peachtree-handyman.storage");
type GlobalWithStorage = typeof globalThis & { [globalKey]?: StorageDriver };

/** The configured driver: S3 when S3_BUCKET is set, otherwise DATA_DIR/uploads. */
export function storage(): StorageDriver {
  const holder = globalThis as GlobalWithStorage;
  if (!holder[globalKey]) {
    const config = env();
    holder[globalKey] = config.s3
      ? createS3Storage(config.s3)
      : createLocalStorage(path.join(config.dataDir, "uploads"));
  }
  return holder[globalKey];
}

/** Tests (and benchmarks) point the process at their own driver; undefined re-reads the env. */
export function setStorage(driver: StorageDriver | undefined) {
  (globalThis as GlobalWithStorage)[globalKey] = driver;
}

/** Reads a stored object fully (small files: thumbnails, tests). */
export async function readAll(object: StoredObject): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
