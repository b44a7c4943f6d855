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
  'GET /tags': ['tags.read'],
  'POST /tags': ['tags.write'],
  'PATCH /tags/:id': ['tags.write'],
  'DELETE /tags/:id': ['tags.write'],
  // Categories belong to transactions (as they do in the scope list: no categories.* scope).
  'GET /categories': ['transactions.read'],
  'POST /categories': ['transactions.write'],
  'PATCH /categories/:id': ['transactions.write'],
  'DELETE /categories/:id': ['transactions.write'],
  'GET /customers': ['customers.read'],
  'GET /customers/:id': ['customers.read'],
  'POST /customers': ['customers.write'],
  'PATCH /customers/:id': ['customers.write'],
  'DELETE /customers/:id': ['customers.write'],
  'GET /invoices': ['invoices.read'],
  'GET /invoices/:id': ['invoices.read'],
  'POST /invoices': ['invoices.write'],
  'PATCH /invoices/:id': ['invoices.write'],
  'POST /invoices/:id/finalize': ['invoices.write'],
  'POST /invoices/:id/mark-paid': ['invoices.write'],
  'POST /invoices/:id/cancel': ['invoices.write'],
  'DELETE /invoices/:id': ['invoices.write'],

  // tRPC
  'transactions.get': ['transactions.read'],
  'transactions.getById': ['transactions.read'],
  'transactions.create': ['transactions.write'],
  'transactions.update': ['transactions.write'],
  'transactions.delete': ['transactions.write'],
  'tags.get': ['tags.read'],
  'tags.create': ['tags.write'],
  'tags.update': ['tags.write'],
  'tags.delete': ['tags.write'],
  'categories.get': ['transactions.read'],
  'categories.create': ['transactions.write'],
  'categories.update': ['transactions.write'],
  'categories.delete': ['transactions.write'],
  'customers.get': ['customers.read'],
  'customers.getById': ['customers.read'],
  'customers.create': ['customers.write'],
  'customers.update': ['customers.write'],
  'customers.delete': ['customers.write'],
  'invoices.get': ['invoices.read'],
  'invoices.getById': ['invoices.read'],
  'invoices.create': ['invoices.write'],
  'invoices.update': ['invoices.write'],
  'invoices.transition': ['invoices.write'],
  'invoices.delete': ['invoices.write'],
} as const satisfies Record<string, readonly string[]>;

export type Operation = keyof typeof REQUIRED_SCOPES;
