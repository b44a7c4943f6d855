/**
 * The one table of what each operation needs. REST routes are keyed `METHOD /path` (the router's
 * path pattern), tRPC procedures by their dotted name. A route or procedure missing from here
 * cannot be mounted (see guard.ts), and a test walks both routers to prove it.
 */
export const REQUIRED_SCOPES = {
  // REST
  'GET /transactions': ['transactions.read'],

  // tRPC
  'transactions.get': ['transactions.read'],
} as const satisfies Record<string, readonly string[]>;

export type Operation = keyof typeof REQUIRED_SCOPES;
