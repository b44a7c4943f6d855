import { readFileSync } from 'node:fs';
import path from 'node:path';

// .env.example is the documentation of the configuration: it must name every variable config.ts reads.
describe('.env.example', () => {
  it('documents every configuration variable', () => {
    const root = path.resolve(__dirname, '..', '..');
    const source = readFileSync(path.join(root, 'shared', 'config.ts'), 'utf8');
    const schemaBlock = source.slice(source.indexOf('z\n  .object({'), source.indexOf('.superRefine('));
    const variables = [...schemaBlock.matchAll(/^\s{4}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(variables.length).toBeGreaterThan(30);
    const documented = new Set(
      readFileSync(path.join(root, '.env.example'), 'utf8')
        .split('\n')
        .map((l) => /^([A-Z][A-Z0-9_]+)=/.exec(l)?.[1])
        .filter(Boolean),
    );
    expect(variables.filter((v) => !documented.has(v))).toEqual([]);
  });
});
