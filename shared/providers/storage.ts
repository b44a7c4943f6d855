import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import { PROJECT_ROOT } from '../paths';

/**
 * Where documents live: a directory on disk (STORAGE_DIR), keyed `<teamId>/<sha256>` so the same
 * file is stored once per team. (An S3-compatible backend would implement the same two calls.)
 */
export function createDiskStorage(dir: string) {
  const root = path.resolve(PROJECT_ROOT, dir);
  const full = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(root + path.sep)) throw new Error('storage key escapes the storage directory');
    return p;
  };
  return {
    async put(key: string, bytes: Buffer): Promise<void> {
      await mkdir(path.dirname(full(key)), { recursive: true });
      await writeFile(full(key), bytes);
    },
    get: (key: string): Promise<Buffer> => readFile(full(key)),
  };
}

export type Storage = ReturnType<typeof createDiskStorage>;

/** The document store the config asks for: disk under STORAGE_DIR (S3-compatible storage to come). */
export function createStorage(config: Pick<Config, 'STORAGE_DIR'>): Storage {
  return createDiskStorage(config.STORAGE_DIR);
}
