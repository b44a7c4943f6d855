import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config';
import { PROJECT_ROOT } from '../paths';

/** Where documents live, keyed `<teamId>/<sha256>…` so the same file is stored once per team. */
export interface Storage {
  put(key: string, bytes: Buffer): Promise<void>;
  /** Rejects with StorageNotFoundError when nothing is stored under the key. */
  get(key: string): Promise<Buffer>;
  /** Stores a file from disk without reading it into memory (uploads are spooled to a temporary file first). */
  putFile(key: string, filePath: string, size: number): Promise<void>;
  /** The stored bytes as a stream, with their length; rejects with StorageNotFoundError like get. */
  open(key: string): Promise<{ stream: Readable; size: number }>;
  /** Removes the object; nothing stored under the key is not an error. */
  remove(key: string): Promise<void>;
}

/** One error for "no such object" whatever the backend, so callers need not know ENOENT from NoSuchKey. */
export class StorageNotFoundError extends Error {
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`Nothing stored under key ${key}`, options);
    this.name = 'StorageNotFoundError';
  }
}

/** A directory on disk (STORAGE_DIR). */
export function createDiskStorage(dir: string): Storage {
  const root = path.resolve(PROJECT_ROOT, dir);
  const full = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(root + path.sep)) throw new Error('storage key escapes the storage directory');
    return p;
  };
  return {
    async put(key, bytes) {
      await mkdir(path.dirname(full(key)), { recursive: true });
      await writeFile(full(key), bytes);
    },
    async get(key) {
      try {
        return await readFile(full(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageNotFoundError(key, { cause: err });
        throw err;
      }
    },
    async putFile(key, filePath) {
      await mkdir(path.dirname(full(key)), { recursive: true });
      await copyFile(filePath, full(key));
    },
    async open(key) {
      try {
        const { size } = await stat(full(key));
        return { stream: createReadStream(full(key)), size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageNotFoundError(key, { cause: err });
        throw err;
      }
    },
    async remove(key) {
      await rm(full(key), { force: true });
    },
  };
}

export interface S3StorageOptions {
  /** Unset: AWS itself. Set: MinIO, R2 or any other S3-compatible store. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A bucket in an S3-compatible store. */
export function createS3Storage(opts: S3StorageOptions): Storage {
  // The SDK is loaded with the first call, not with every process that holds a storage it may never use.
  let sdk: Promise<{ s3: typeof import('@aws-sdk/client-s3'); client: import('@aws-sdk/client-s3').S3Client }> | undefined;
  const load = () =>
    (sdk ??= import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        endpoint: opts.endpoint,
        region: opts.region,
        credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
        // Bucket-in-hostname addressing needs wildcard DNS that self-hosted stores rarely have.
        forcePathStyle: true,
        // The SDK's default CRC32 trailers (aws-chunked bodies) are not understood by every S3-compatible store.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  return {
    async put(key, bytes) {
      const { s3, client } = await load();
      await client.send(new s3.PutObjectCommand({ Bucket: opts.bucket, Key: key, Body: bytes }));
    },
    async get(key) {
      try {
        const { s3, client } = await load();
        const res = await client.send(new s3.GetObjectCommand({ Bucket: opts.bucket, Key: key }));
        if (!res.Body) throw new Error(`S3 answered without a body for ${key}`);
        return Buffer.from(await res.Body.transformToByteArray());
      } catch (err) {
        // Only a missing key: a missing bucket or refused credentials is a configuration problem, not a missing document.
        if ((err as Error).name === 'NoSuchKey') throw new StorageNotFoundError(key, { cause: err });
        throw err;
      }
    },
    async putFile(key, filePath, size) {
      // A known length lets the SDK send the file as one streamed PUT instead of buffering it.
      const { s3, client } = await load();
      await client.send(new s3.PutObjectCommand({ Bucket: opts.bucket, Key: key, Body: createReadStream(filePath), ContentLength: size }));
    },
    async open(key) {
      try {
        const { s3, client } = await load();
        const res = await client.send(new s3.GetObjectCommand({ Bucket: opts.bucket, Key: key }));
        if (!res.Body) throw new Error(`S3 answered without a body for ${key}`);
        return { stream: res.Body as Readable, size: res.ContentLength ?? 0 };
      } catch (err) {
        if ((err as Error).name === 'NoSuchKey') throw new StorageNotFoundError(key, { cause: err });
        throw err;
      }
    },
    async remove(key) {
      const { s3, client } = await load();
      await client.send(new s3.DeleteObjectCommand({ Bucket: opts.bucket, Key: key }));
    },
  };
}

export type StorageConfig = Pick<
  Config,
  'STORAGE_DIR' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'
>;

/** The document store the config asks for: an S3-compatible bucket when S3_BUCKET is set, else disk under STORAGE_DIR. */
export function createStorage(config: StorageConfig): Storage {
  if (!config.S3_BUCKET) return createDiskStorage(config.STORAGE_DIR);
  // loadConfig already refuses a bucket without keys; this guards configs built by hand.
  if (!config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY)
    throw new Error('S3_BUCKET is set but S3_ACCESS_KEY_ID or S3_SECRET_ACCESS_KEY is not');
  return createS3Storage({
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  });
}
