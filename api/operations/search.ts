import { searchHitSchema, searchQuery } from '../../shared/domain/search/schema';
import { search as searchEverything } from '../../shared/domain/search/service';
import { all, query } from './declare';

export const search = [
  query('search.query', 'GET /search', ['search.read'], {
    summary: 'Search everything',
    description:
      'One ranked list across transactions, customers, invoices, documents (name and extracted text), inbox items and tracker projects: full-text match, partial names, and exact amounts. Each kind appears only with its read scope (`transactions.read`, `customers.read`, `invoices.read`, `documents.read`, `inbox.read`, `tracker-projects.read`); not paginated: ask for a larger `limit` or a narrower `type`.',
    input: searchQuery,
    output: all(searchHitSchema),
    run: ({ principal, input }, { db }) => searchEverything(db, principal, input),
  }),
];
