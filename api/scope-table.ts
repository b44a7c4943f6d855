import type { AnyRouter } from '@trpc/server';
import type { ResourceScope } from '../shared/domain/auth/scopes';
import { operationName, type Route } from './rest/define';
import type { ProcedureMeta } from './trpc/trpc';

export interface ScopeRow {
  interface: 'REST' | 'tRPC';
  operation: string;
  scopes: readonly ResourceScope[];
}

/**
 * What each operation needs, read from the routes and procedures themselves (each declares its scopes
 * where it is defined), for the reference documentation and for tests.
 */
export function scopeTable(routes: Route[], appRouter: AnyRouter): ScopeRow[] {
  const rest = routes.map((r): ScopeRow => ({ interface: 'REST', operation: operationName(r), scopes: r.scopes }));
  const trpc = Object.entries(appRouter._def.procedures as Record<string, { _def: { meta?: ProcedureMeta } }>).map(
    ([path, p]): ScopeRow => ({ interface: 'tRPC', operation: path, scopes: p._def.meta?.scopes ?? [] }),
  );
  return [...rest, ...trpc];
}

/** The tRPC half as a Markdown table, for the OpenAPI description (REST operations carry their own). */
export function trpcScopeMarkdown(rows: ScopeRow[]): string {
  const lines = rows
    .filter((r) => r.interface === 'tRPC')
    .map((r) => `| \`${r.operation}\` | ${r.scopes.map((s) => `\`${s}\``).join(', ')} |`);
  return ['| tRPC procedure | Required scopes |', '|---|---|', ...lines].join('\n');
}
