import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The repository's root, for tests that read its sources. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Every .ts file under `dir`, at any depth. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}
