/** Every scope a key, token or session can hold. */
export const RESOURCE_SCOPES = [
  'bank-accounts.read',
  'bank-accounts.write',
  'transactions.read',
  'transactions.write',
  'invoices.read',
  'invoices.write',
  'customers.read',
  'customers.write',
  'documents.read',
  'documents.write',
  'tracker-entries.read',
  'tracker-entries.write',
  'tracker-projects.read',
  'tracker-projects.write',
  'teams.read',
  'teams.write',
  'users.read',
  'users.write',
  'inbox.read',
  'inbox.write',
  'insights.read',
  'reports.read',
  'tags.read',
  'tags.write',
  'search.read',
  'chat.read',
  'chat.write',
  'notifications.read',
  'notifications.write',
  'events.read',
  'agent-actions.read',
  'agent-actions.write',
  'audit.read',
] as const;

export type ResourceScope = (typeof RESOURCE_SCOPES)[number];

export const ALL_SCOPES = ['apis.all', 'apis.read', ...RESOURCE_SCOPES] as const;
export type Scope = (typeof ALL_SCOPES)[number];

const known = new Set<string>(ALL_SCOPES);
export const isScope = (s: string): s is Scope => known.has(s);

/**
 * The concrete scopes a set of granted scopes stands for: `apis.all` is every scope, `apis.read`
 * every `*.read`. Write never implies read: `transactions.write` alone cannot list transactions.
 */
export function expandScopes(granted: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const s of granted) {
    if (s === 'apis.all') ALL_SCOPES.forEach((x) => out.add(x));
    else if (s === 'apis.read') {
      out.add('apis.read');
      RESOURCE_SCOPES.filter((x) => x.endsWith('.read')).forEach((x) => out.add(x));
    } else out.add(s);
  }
  return out;
}

/** True when `granted` covers every one of `required`. */
export function hasScopes(granted: readonly string[], required: readonly string[]): boolean {
  const have = expandScopes(granted);
  return required.every((r) => have.has(r));
}

/** The scopes in `requested` that `holder` does not cover: a non-empty result is an escalation. */
export function scopesBeyond(holder: readonly string[], requested: readonly string[]): string[] {
  const have = expandScopes(holder);
  return requested.filter((r) => [...expandScopes([r])].some((x) => !have.has(x)));
}
