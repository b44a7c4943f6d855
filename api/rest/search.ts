import { searchHitSchema, searchQuery } from '../../shared/domain/search/schema';
import { search } from '../../shared/domain/search/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { all } from './replies';

export const searchRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/search',
    scopes: ['search.read'],
    tag: 'Search',
    summary: 'Search everything',
    description:
      'One ranked list across transactions, customers, invoices, documents (name and extracted text), inbox items and tracker projects: full-text match, partial names, and exact amounts. Each kind appears only with its read scope (`transactions.read`, `customers.read`, `invoices.read`, `documents.read`, `inbox.read`, `tracker-projects.read`); not paginated: ask for a larger `limit` or a narrower `type`.',
    query: searchQuery,
    reply: all(searchHitSchema),
    handler: ({ principal, query }) => search(db, principal, query),
  }),
];
