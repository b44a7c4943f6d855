import type Router from '@koa/router';
import { createApp } from '../../api/app';
import { createApiDeps } from '../../api/deps';
import { buildOpenApiDocument } from '../../api/openapi';
import { operations } from '../../api/operations';
import { scopeTable } from '../../api/scope-table';
import { RESOURCE_SCOPES } from '../../shared/domain/auth/scopes';
import { createDb } from '../../shared/db/knex';
import { createLogger } from '../../shared/logger';
import { createTemporalGateway } from '../../shared/temporal/client';
import { testConfig } from '../support/api';
import { restDoors, trpcProcedures } from '../support/doors';

/**
 * The routes the gateway serves besides the declared operations, each with a pipeline of its own: probes
 * and the reference, the provider webhooks, public invoice links, OAuth and the browser session, MCP.
 */
const OWN_PIPELINES = [
  /^\/(health|livez|readyz)$/,
  /^\/openapi\.json$/,
  /^\/$/,
  /^\/reference\//,
  /^\/webhook\//,
  /^\/i\/:token/,
  /^\/accountant\/:token$/,
  /^\/\.well-known\//,
  /^\/oauth\//,
  /^\/auth\/session$/,
  /^\/mcp$/,
];

/** Every route of every koa router in the built gateway: what it really answers, whoever mounted it. */
function mountedRoutes(): string[] {
  const config = testConfig();
  // Neither PostgreSQL nor Temporal is reached while the app is only built.
  const deps = createApiDeps({
    config,
    db: createDb({ url: 'postgres://nobody@127.0.0.1:1/none' }),
    temporal: createTemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'none' }),
    logger: createLogger(config),
  });
  const app = createApp(deps);
  return app.middleware.flatMap((mw) => {
    const { router, routers } = mw as { router?: Router; routers?: Router[] };
    return [...(router ? [router] : []), ...(routers ?? [])].flatMap((r) =>
      r.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`)),
    );
  });
}

describe('one declaration per operation', () => {
  const doors = restDoors().map((d) => `${d.method} ${d.path}`);

  it('is the only source of REST routes: each declared door is mounted once, and nothing else is but the own pipelines', () => {
    const mounted = mountedRoutes();
    expect(doors.filter((d) => mounted.filter((m) => m === d).length !== 1)).toEqual([]);
    const undeclared = mounted.filter((m) => !doors.includes(m) && !OWN_PIPELINES.some((p) => p.test(m.split(' ')[1])));
    expect(undeclared).toEqual([]);
  });

  it('is the only source of tRPC procedures: each operation with a tRPC door under its name and former names, nothing else', () => {
    const served = trpcProcedures()
      .map(([name]) => name)
      .sort();
    const declared = operations.filter((op) => !op.restOnly).flatMap((op) => [op.name, ...(op.formerly ?? [])]);
    expect(served).toEqual([...new Set(declared)].sort());
  });

  it("serves a former name with its operation's own procedure, unless another operation now has that name", () => {
    const procedures = new Map(trpcProcedures());
    // `teams.get` (one team before, the list now) answers both forms: deprecated-names.test.ts shows it.
    const shared = new Set(operations.map((op) => op.name).filter((name) => operations.some((op) => op.formerly?.includes(name))));
    const aliases = operations
      .filter((op) => !shared.has(op.name))
      .flatMap((op) => (op.formerly ?? []).filter((old) => !shared.has(old)).map((old) => [old, op.name]));
    expect(aliases.length).toBeGreaterThan(20);
    expect(aliases.filter(([old, name]) => procedures.get(old) !== procedures.get(name))).toEqual([]);
  });

  it('names each operation once, and each REST door once', () => {
    const names = operations.map((op) => op.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    const shapes = doors.map((d) => d.replace(/:\w+/g, ':'));
    expect(shapes.filter((s, i) => shapes.indexOf(s) !== i)).toEqual([]);
  });

  it('gives every OpenAPI operation a unique operationId: its name for a declared one', () => {
    type Methods = Record<string, Record<string, { operationId?: string }>>;
    const doc = buildOpenApiDocument(operations) as unknown as { paths: Methods; webhooks: Methods };
    const idsOf = (items: Methods) => Object.values(items).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    const ids = [...idsOf(doc.paths), ...idsOf(doc.webhooks)];
    expect(ids.filter((id) => id === undefined)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const declared = operations.filter((op) => op.rest).map((op) => op.name);
    // The doors with pipelines of their own (probes, OAuth, the session cookie) and the events sent out.
    expect(
      idsOf(doc.paths)
        .filter((id) => !declared.includes(id!))
        .sort(),
    ).toEqual([
      'health.get',
      'health.livez',
      'health.readyz',
      'oauth.authorize',
      'oauth.decide',
      'oauth.metadata',
      'oauth.register',
      'oauth.revoke',
      'oauth.token',
      'session.end',
      'session.start',
    ]);
    expect(idsOf(doc.paths)).toEqual(expect.arrayContaining(declared));
    expect(idsOf(doc.webhooks).every((id) => id!.startsWith('webhook.'))).toBe(true);
  });

  it('lists every deprecated tRPC name in the reference, with the name that replaced it', () => {
    const doc = buildOpenApiDocument(operations) as unknown as { info: { description: string } };
    for (const op of operations) for (const old of op.formerly ?? []) expect(doc.info.description).toContain(`| \`${old}\` | ${op.kind} |`);
    for (const old of operations.flatMap((op) => op.formerly ?? []))
      expect(doc.info.description).toMatch(new RegExp(`\`${old}\` .*deprecated`));
  });
});

describe('scopes, declared with each operation', () => {
  const rows = scopeTable(operations);

  it('gives each operation at least one real scope', () => {
    const known = new Set<string>(RESOURCE_SCOPES);
    expect(operations.filter((op) => op.scopes.length === 0 || !op.scopes.every((s) => known.has(s))).map((op) => op.name)).toEqual([]);
  });

  it('never lets a write through with a read scope alone, over either door', () => {
    // Computes a summary from what the caller may read and changes none of the team's data, so
    // insights take a read scope only. An export copies what the caller may read into a ZIP in the
    // team's documents and changes no transaction: reading is what it needs.
    const derivedOnly = new Set(['insights.generate', 'transactionExports.create']);
    const writes = rows.filter((r) => r.kind === 'mutation' && !derivedOnly.has(r.name));
    expect(writes.filter((r) => r.interface === 'tRPC').length).toBeGreaterThan(60);
    expect(writes.filter((r) => r.scopes.some((s) => s.endsWith('.read'))).map((r) => `${r.interface} ${r.operation}`)).toEqual([]);
  });
});

describe('tRPC procedures', () => {
  it('each declare the schema of what they return', () => {
    expect(trpcProcedures().filter(([, p]) => !(p._def as { output?: unknown }).output)).toEqual([]);
  });
});
