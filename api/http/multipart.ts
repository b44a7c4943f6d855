import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'koa';
import { AppError, badRequest, payloadTooLarge } from '../../shared/errors';

/** A file of a multipart request, spooled to a temporary file while its hash and size were taken. */
export interface SpooledFile {
  path: string;
  /** As the client named it (only a name, never a path). */
  fileName: string;
  size: number;
  sha256: string;
  /** The first bytes, for detecting the type from the content. */
  head: Buffer;
}

export interface SpooledUpload {
  files: SpooledFile[];
  fields: Record<string, string[]>;
  /** Removes the temporary files; call it when done with them, whatever happened. */
  discard(): Promise<void>;
}

export interface SpoolLimits {
  maxFileBytes: number;
  maxFiles: number;
  headBytes: number;
}

/** Room for the part headers and text fields around the files. */
const ENVELOPE_BYTES = 1024 * 1024;

const unsupported = () => new AppError(415, 'Unsupported Media Type', 'Send the files as `multipart/form-data`');

/**
 * Reads a multipart/form-data request without holding a file in memory: each file streams to a
 * temporary file while its SHA-256, size and first bytes are taken. A file over the limit is 413
 * after the request is read (a client cannot read an answer it is still sending), and a declared
 * length no upload could need is 413 before anything is read. Nothing is kept on any error.
 */
export async function spoolMultipart(ctx: Context, limits: SpoolLimits): Promise<SpooledUpload> {
  if (!ctx.request.is('multipart/form-data')) throw unsupported();
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limits.maxFiles * limits.maxFileBytes + ENVELOPE_BYTES) {
    ctx.set('Connection', 'close');
    throw payloadTooLarge(`The upload is larger than ${limits.maxFiles} files of ${limits.maxFileBytes} bytes`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'finops-upload-'));
  const discard = () => rm(dir, { recursive: true, force: true });
  try {
    const result = await readParts(ctx, dir, limits);
    return { ...result, discard };
  } catch (err) {
    await discard();
    throw err;
  }
}

function readParts(ctx: Context, dir: string, limits: SpoolLimits): Promise<Pick<SpooledUpload, 'files' | 'fields'>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        // Browsers and undici send UTF-8 file names unencoded; busboy's default would read them as Latin-1.
        defParamCharset: 'utf8',
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: 50, fieldSize: 10_000, parts: limits.maxFiles + 50 },
      });
    } catch {
      // No boundary, or a content type busboy does not take.
      reject(badRequest('The multipart body has no boundary'));
      return;
    }
    // Kept in the form's order, whichever file finishes writing first.
    const files: SpooledFile[] = [];
    let slots = 0;
    const fields: Record<string, string[]> = {};
    const writes: Promise<void>[] = [];
    let problem: AppError | null = null;
    const fail = (err: AppError) => {
      problem ??= err;
    };

    parser.on('file', (_name, stream, info) => {
      const fileName = path.basename(info.filename || 'upload').slice(0, 255);
      const slot = slots++;
      const target = path.join(dir, String(slot));
      const hash = createHash('sha256');
      const headParts: Buffer[] = [];
      let size = 0;
      let headSize = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          if (headSize < limits.headBytes) {
            headParts.push(chunk.subarray(0, limits.headBytes - headSize));
            headSize += Math.min(chunk.length, limits.headBytes - headSize);
          }
          done(null, chunk);
        },
      });
      stream.on('limit', () => fail(payloadTooLarge(`${fileName} is larger than ${limits.maxFileBytes} bytes`)));
      writes.push(
        pipeline(stream, tap, createWriteStream(target)).then(() => {
          files[slot] = { path: target, fileName, size, sha256: hash.digest('hex'), head: Buffer.concat(headParts) };
        }),
      );
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(payloadTooLarge(`The field ${name} is too long`));
      (fields[name] ??= []).push(value);
    });
    parser.on('filesLimit', () => fail(payloadTooLarge(`At most ${limits.maxFiles} files in one upload`)));
    parser.on('partsLimit', () => fail(badRequest('Too many parts in the multipart body')));
    parser.on('fieldsLimit', () => fail(badRequest('Too many fields in the multipart body')));
    parser.on('error', () => {
      ctx.req.unpipe(parser);
      ctx.req.resume();
      reject(badRequest('The multipart body could not be read'));
    });
    parser.on('close', () => {
      Promise.all(writes).then(
        () => {
          if (problem) reject(problem);
          else if (!files.length) reject(badRequest('Attach at least one file', [{ field: 'file', message: 'no file in the form' }]));
          else resolve({ files, fields });
        },
        () => reject(badRequest('The multipart body could not be read')),
      );
    });
    ctx.req.on('aborted', () => reject(badRequest('The upload was interrupted')));
    ctx.req.pipe(parser);
  });
}
