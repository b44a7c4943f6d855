import { restRoutes } from '../../api/app';
import type { ApiDeps } from '../../api/deps';
import { REQUIRED_SCOPES } from '../../api/auth/required-scopes';
import { createAppRouter } from '../../api/trpc/app-router';
import { isScope } from '../../shared/domain/auth/scopes';

// Route factories only capture their deps; nothing is called while listing them.
const deps = {} as ApiDeps;

describe('the scope table', () => {
  const rest = restRoutes(deps).map((r) => `${r.method.toUpperCase()} ${r.path}`);
  const trpc = Object.keys((createAppRouter(deps) as any)._def.procedures);
  const table = Object.keys(REQUIRED_SCOPES);

  it('covers every REST route and tRPC procedure', () => {
    expect([...rest, ...trpc].filter((op) => !table.includes(op))).toEqual([]);
  });

  it('has no entry for an operation that does not exist', () => {
    expect(table.filter((op) => !rest.includes(op) && !trpc.includes(op))).toEqual([]);
  });

  it('names only real scopes, and at least one per operation', () => {
    for (const [op, scopes] of Object.entries(REQUIRED_SCOPES)) {
      expect({ op, ok: scopes.length > 0 && (scopes as readonly string[]).every(isScope) }).toEqual({ op, ok: true });
    }
  });
});
