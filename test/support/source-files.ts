import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's root, for tests that read its sources. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Every .ts file under `dir`, at any depth. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** Each line of `files` that `pattern` matches, as `path:line: text` (relative to ROOT), for a test to expect none. */
export function linesMatching(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}
