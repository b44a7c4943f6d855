import { readFile } from 'node:fs/promises';
import { CLIENT_SCHEMA_PATH, clientSchemaSource } from '../../scripts/lib/client-schema';

/** The first line where two texts part, so that a stale file fails with one readable line, not a 1 MB diff. */
function firstDifference(committed: string, fresh: string) {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return at === a.length && a.length === b.length ? null : { line: at + 1, committed: a[at], generated: b[at] };
}

describe("the typed client's schema.d.ts", () => {
  it('is what the operation declarations generate now (if not: npm run sdk:generate, and commit the file)', async () => {
    const [committed, fresh] = await Promise.all([readFile(CLIENT_SCHEMA_PATH, 'utf8'), clientSchemaSource()]);
    expect(firstDifference(committed, fresh)).toBeNull();
  });
});
