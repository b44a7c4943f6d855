import type { ResourceScope } from '../shared/domain/auth/scopes';
import type { AnyOperation, Kind } from './operations/declare';

export interface ScopeRow {
  interface: 'REST' | 'tRPC';
  /** `GET /transactions` for REST; the procedure's name for tRPC. */
  operation: string;
  /** The declaration it comes from. */
  name: string;
  kind: Kind;
  scopes: readonly ResourceScope[];
  /** For a former tRPC name: the operation's name now. */
  aliasOf?: string;
  deprecated?: string;
}

/** What each door of each operation needs, read from the declarations: for the reference documentation and for tests. */
export function scopeTable(operations: readonly AnyOperation[]): ScopeRow[] {
  return operations.flatMap((op) => {
    const row = { name: op.name, kind: op.kind, scopes: op.scopes, deprecated: op.deprecated };
    const rest: ScopeRow[] = op.rest ? [{ ...row, interface: 'REST', operation: op.rest }] : [];
    const trpc: ScopeRow[] = op.restOnly
      ? []
      : [
          { ...row, interface: 'tRPC', operation: op.name },
          ...(op.formerly ?? []).map((old): ScopeRow => ({ ...row, interface: 'tRPC', operation: old, aliasOf: op.name })),
        ];
    return [...rest, ...trpc];
  });
}

/** The reference's group for an operation: its resource, as words (`bankConnections.get` → `Bank connections`). */
export const tagOf = (name: string) => {
  const words = name.split('.')[0].replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return words[0].toUpperCase() + words.slice(1);
};
