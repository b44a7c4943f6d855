import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { operations } from '../../api/operations';

const TEST_ROOT = path.resolve(__dirname, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(full);
    return e.name.endsWith('.test.ts') && full !== __filename ? [full] : [];
  });
}

/** One call of a procedure through the typed client, and whether the test awaits its refusal. */
interface ProcedureCall {
  name: string;
  refused: boolean;
}

const unwrapped = (node: ts.Node): ts.Node => {
  let at = node;
  while (
    ts.isAwaitExpression(at.parent) ||
    ts.isParenthesizedExpression(at.parent) ||
    ts.isAsExpression(at.parent) ||
    ts.isNonNullExpression(at.parent)
  )
    at = at.parent;
  return at;
};

/**
 * A call the test expects to fail: handed to `trpcError(…)`, to `expect(…).rejects`, or caught in
 * place (`….mutate(…).catch(…)`). Such a call proves the refusal, not the procedure.
 */
function isRefused(call: ts.CallExpression): boolean {
  const at = unwrapped(call);
  const parent = at.parent;
  if (ts.isCallExpression(parent) && parent.arguments.includes(at as ts.Expression)) {
    if (ts.isIdentifier(parent.expression) && parent.expression.text === 'trpcError') return true;
    if (ts.isIdentifier(parent.expression) && parent.expression.text === 'expect') {
      const used = parent.parent;
      return ts.isPropertyAccessExpression(used) && used.name.text === 'rejects';
    }
  }
  return ts.isPropertyAccessExpression(parent) && parent.expression === at && parent.name.text === 'catch';
}

/**
 * The procedures a test file calls through the typed client, read from its syntax tree (so neither a
 * comment nor a string counts): `<client>.<router>.<procedure>.query|mutate(…)`, or through a name
 * bound to one router (`const keys = trpcAs(api, token).apiKeys` … `keys.delete.mutate(…)`, or
 * `const keys = (token) => trpcAs(api, token).apiKeys` … `keys(token).delete.mutate(…)`).
 */
function callsIn(file: string, text: string, routers: Set<string>): ProcedureCall[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const routerAliases = new Map<string, string>();
  const routerOf = (e: ts.Expression | ts.ConciseBody): string | undefined =>
    ts.isPropertyAccessExpression(e) && routers.has(e.name.text) ? e.name.text : undefined;
  const calls: ProcedureCall[] = [];

  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = node.initializer;
      const router = ts.isArrowFunction(init) ? routerOf(init.body) : routerOf(init);
      if (router) routerAliases.set(node.name.text, router);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['query', 'mutate'].includes(node.expression.name.text) &&
      ts.isPropertyAccessExpression(node.expression.expression)
    ) {
      const procedure = node.expression.expression;
      const on = procedure.expression;
      const aliasName = ts.isIdentifier(on) ? on.text : ts.isCallExpression(on) && ts.isIdentifier(on.expression) ? on.expression.text : '';
      const router = routerOf(on) ?? routerAliases.get(aliasName);
      if (router) calls.push({ name: `${router}.${procedure.name.text}`, refused: isRefused(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

/**
 * Every operation's tRPC door is exercised through the typed client by some test, and at least once
 * where it succeeds: one added without a test, or tested only for what it refuses, fails here by name.
 * (Former names are checked against their operations in deprecated-names.test.ts.)
 */
describe('tRPC procedures', () => {
  const procedures = operations.filter((op) => !op.restOnly).map((op) => op.name);
  const routers = new Set(procedures.map((p) => p.split('.')[0]));
  const calls = testFiles(TEST_ROOT).flatMap((file) => callsIn(file, readFileSync(file, 'utf8'), routers));

  it('are each called by the typed client in some test, and seen to succeed there', () => {
    const succeeded = new Set(calls.filter((c) => !c.refused).map((c) => c.name));
    expect(procedures.filter((p) => !succeeded.has(p))).toEqual([]);
  });

  it('are read from code, not from comments or strings', () => {
    const sample = [
      '// trpc.invoiceSeries.getById.query({ id })',
      "const text = 'trpc.invoiceSeries.getById.query(';",
      'await trpcError(trpc.notifications.getById.query({ id }));',
      'const teams = trpcAs(api, token).teams;',
      'await teams.regenerateInboxId.mutate({ teamId });',
    ].join('\n');
    expect(callsIn('sample.ts', sample, routers)).toEqual([
      { name: 'notifications.getById', refused: true },
      { name: 'teams.regenerateInboxId', refused: false },
    ]);
  });
});
