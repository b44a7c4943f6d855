import type { AnyRouter } from '@trpc/server';
import { restRoutes } from '../../api/app';
import type { ApiDeps } from '../../api/deps';
import { scopeTable } from '../../api/scope-table';
import { createAppRouter } from '../../api/trpc/app-router';
import { RESOURCE_SCOPES } from '../../shared/domain/auth/scopes';

// Route factories only capture their deps; nothing is called while listing them.
const deps = {} as ApiDeps;

describe('scopes, declared next to each operation', () => {
  const rows = scopeTable(restRoutes(deps), createAppRouter(deps));

  it('lists every REST route and tRPC procedure once', () => {
    const names = rows.map((r) => `${r.interface} ${r.operation}`);
    expect(new Set(names).size).toBe(names.length);
    expect(rows.filter((r) => r.interface === 'REST').length).toBeGreaterThan(40);
    expect(rows.filter((r) => r.interface === 'tRPC').length).toBeGreaterThan(50);
  });

  it('gives each operation at least one real scope', () => {
    const known = new Set<string>(RESOURCE_SCOPES);
    const bad = rows.filter((r) => r.scopes.length === 0 || !r.scopes.every((s) => known.has(s)));
    expect(bad).toEqual([]);
  });

  it('never lets a write operation through with a read scope alone', () => {
    // Computes a summary from what the caller may read and changes none of the team's data; the spec
    // gives insights a read scope only. An export (#13) copies what the caller may read into a ZIP in the
    // team's documents and changes no transaction: reading is what it needs.
    const derivedOnly = new Set(['POST /insights', 'POST /transactions/export']);
    const writes = rows.filter((r) => (r.interface === 'REST' ? !r.operation.startsWith('GET ') && !derivedOnly.has(r.operation) : false));
    expect(writes.filter((r) => r.scopes.some((s) => s.endsWith('.read')))).toEqual([]);
  });
});

describe('tRPC procedures', () => {
  const router: AnyRouter = createAppRouter(deps);
  const procedures = router._def.procedures as Record<string, { _def: { output?: unknown } }>;

  it('each declare the schema of what they return', () => {
    expect(Object.keys(procedures).filter((path) => !procedures[path]._def.output)).toEqual([]);
  });
});
