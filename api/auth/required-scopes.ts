/**
 * The one table of what each operation needs. REST routes are keyed `METHOD /path` (the router's
 * path pattern), tRPC procedures by their dotted name. A route or procedure missing from here
 * cannot be mounted (see guard.ts), and a test walks both routers to prove it.
 */
export const REQUIRED_SCOPES = {
  // REST
  'GET /transactions': ['transactions.read'],
  'GET /transactions/:id': ['transactions.read'],
  'POST /transactions': ['transactions.write'],
  'PATCH /transactions/:id': ['transactions.write'],
  'DELETE /transactions/:id': ['transactions.write'],

  // tRPC
  'transactions.get': ['transactions.read'],
  'transactions.getById': ['transactions.read'],
  'transactions.create': ['transactions.write'],
  'transactions.update': ['transactions.write'],
  'transactions.delete': ['transactions.write'],
} as const satisfies Record<string, readonly string[]>;

export type Operation = keyof typeof REQUIRED_SCOPES;
