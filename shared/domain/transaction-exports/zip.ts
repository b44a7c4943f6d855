import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface ZipFile {
  /** Adds one entry and resolves once the archive has read it: streams (an S3 body) are read one at a time. */
  add(source: Readable, name: string): Promise<void>;
  /** Writes the central directory and resolves once the file is on disk. */
  close(): Promise<void>;
  /** Stops writing after a failure; the caller removes the file. */
  abort(): void;
}

/** A ZIP being written to disk (archiver); every entry is stamped `date`, so the same entries give the same bytes. */
export async function openZip(filePath: string, date: Date): Promise<ZipFile> {
  // archiver 8 is an ES module: loaded as one from this CommonJS build.
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const written = pipeline(archive, createWriteStream(filePath));
  // Observed here so a failure while entries are still being added is not unhandled; add() and close() report it.
  written.catch(() => undefined);
  const waiting = new Map<string, () => void>();
  archive.on('entry', (e) => waiting.get(e.name)?.());
  return {
    async add(source, name) {
      const taken = new Promise<void>((resolve, reject) => {
        waiting.set(name, resolve);
        source.once('error', reject);
        written.catch(reject);
      });
      archive.append(source, { name, date });
      try {
        await taken;
      } finally {
        waiting.delete(name);
      }
    },
    async close() {
      await archive.finalize();
      await written;
    },
    abort: () => archive.abort(),
  };
}
