import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { operations } from '../../api/operations';

const TEST_ROOT = path.resolve(__dirname, '..');

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testSources(full);
    return e.name.endsWith('.test.ts') && full !== __filename ? [readFileSync(full, 'utf8')] : [];
  });
}

/**
 * The procedures a test file calls through the typed client: `<client>.<router>.<procedure>.query|mutate(`,
 * or through an alias of one router (`const keys = trpcAs(api, token).apiKeys` … `keys.delete.mutate(`).
 */
function calledIn(source: string, routers: Set<string>): string[] {
  const calls = [...source.matchAll(/\.(\w+)\.(\w+)\.(?:query|mutate)\(/g)].map((m) => `${m[1]}.${m[2]}`);
  for (const [, alias, router] of source.matchAll(/(\w+)\s*=\s*(?:\([^)]*\)\s*=>\s*)?\w+\([^)]*\)\.(\w+)\s*;/g)) {
    if (!routers.has(router)) continue;
    for (const m of source.matchAll(new RegExp(`\\b${alias}(?:\\([^)]*\\))?\\.(\\w+)\\.(?:query|mutate)\\(`, 'g')))
      calls.push(`${router}.${m[1]}`);
  }
  return calls;
}

/**
 * Every operation's tRPC door is exercised through the typed client by some test: one added without a
 * test fails here, by name. (Former names are checked against their operations in deprecated-names.test.ts.)
 */
describe('tRPC procedures', () => {
  it('are each called by the typed client in some test', () => {
    const procedures = operations.filter((op) => !op.restOnly).map((op) => op.name);
    const called = new Set<string>();
    const routers = new Set(procedures.map((p) => p.split('.')[0]));
    for (const source of testSources(TEST_ROOT)) calledIn(source, routers).forEach((c) => called.add(c));
    expect(procedures.filter((p) => !called.has(p))).toEqual([]);
  });
});
