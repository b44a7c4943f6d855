import { existsSync } from 'node:fs';
import path from 'node:path';

/** The project root (where package.json is), whether we run from sources (tsx) or from dist/. */
export const PROJECT_ROOT = (() => {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
})();
