import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";

/*
 * Reads a multipart/form-data request as a stream (ADR 009). Each file is collected
 * only up to its size limit; past it the rest is discarded, never buffered. Files are handed
 * over one at a time and the next one is not read until the previous one is dealt with, so
 * memory holds at most one file however many are sent.
 */

export type UploadedFile = {
  field: string;
  /** The name the browser sent: for logs and display only, never for storage. */
  filename: string;
  /** The Content-Type the browser claimed: not trusted for anything. */
  declaredType: string;
  data: Buffer;
};

export type MultipartOptions = {
  maxFileBytes: number;
  maxFiles: number;
  /** The whole body may not exceed this; past it reading stops and the request fails. */
  maxTotalBytes: number;
  /** Called for each complete file, in order, with the fields read so far. */
  onFile(file: UploadedFile, fields: Record<string, string>): Promise<void>;
  /** Called for each file that went past maxFileBytes (its bytes were discarded). */
  onOversize?(file: Omit<UploadedFile, "data">, fields: Record<string, string>): Promise<void>;
};

export class MultipartError extends Error {
  constructor(
    public readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = "MultipartError";
  }
}

export function isMultipart(request: Request) {
  return /^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "");
}

export async function readMultipart(request: Request, options: MultipartOptions) {
  if (!isMultipart(request) || !request.body) {
    throw new MultipartError(415, "expected multipart/form-data");
  }
  const declaredLength = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declaredLength) && declaredLength > options.maxTotalBytes) {
    throw new MultipartError(413, "request body too large");
  }

  const fields: Record<string, string> = {};
  let oversizeFiles = 0;
  let droppedFiles = 0;

  const parser = busboy({
    headers: { "content-type": request.headers.get("content-type") ?? "" },
    limits: {
      fileSize: options.maxFileBytes,
      files: options.maxFiles,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: options.maxFiles + 20,
    },
  });

  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > options.maxTotalBytes) {
        callback(new MultipartError(413, "request body too large"));
      } else {
        callback(null, chunk);
      }
    },
  });

  // Files are processed strictly one after another; each waits for the previous one.
  let queue: Promise<void> = Promise.resolve();
  let firstError: unknown;

  const done = new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      firstError ??= error;
      reject(firstError);
    };

    parser.on("field", (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });

    parser.on("file", (field, stream, info) => {
      const meta = {
        field,
        filename: info.filename ?? "",
        declaredType: info.mimeType ?? "",
      };
      const snapshot = { ...fields };
      // A file waits its turn unread; if the body breaks meanwhile, busboy errors its stream.
      // Without a listener from the start, that error would be uncaught and end the process.
      stream.on("error", (error) =>
        fail(error instanceof MultipartError ? error : new MultipartError(400, String(error))),
      );
      queue = queue.then(async () => {
        if (firstError) {
          stream.resume();
          return;
        }
        const chunks: Buffer[] = [];
        let tooLarge = false;
        stream.on("limit", () => {
          tooLarge = true;
          chunks.length = 0; // keep nothing of a file that is over the limit
        });
        for await (const chunk of stream) {
          if (!tooLarge) chunks.push(chunk as Buffer);
        }
        if (tooLarge || (stream as unknown as { truncated?: boolean }).truncated) {
          oversizeFiles++;
          await options.onOversize?.(meta, snapshot);
          return;
        }
        if (!meta.filename && chunks.length === 0) return; // an empty file input
        await options.onFile({ ...meta, data: Buffer.concat(chunks) }, snapshot);
      });
      queue.catch(fail);
    });

    parser.on("filesLimit", () => {
      droppedFiles++;
    });
    parser.on("partsLimit", () => {
      droppedFiles++;
    });
    parser.on("error", (error) =>
      fail(error instanceof MultipartError ? error : new MultipartError(400, String(error))),
    );
    parser.on("close", () => {
      queue.then(() => resolve(), fail);
    });
    counter.on("error", fail);
  });

  const body = Readable.fromWeb(request.body as unknown as NodeWebReadableStream);
  body.on("error", (error) => {
    counter.destroy(error);
  });
  body.pipe(counter).pipe(parser);

  try {
    await done;
  } finally {
    body.unpipe();
    if (!body.destroyed) body.destroy();
  }
  return { fields, oversizeFiles, droppedFiles };
}
