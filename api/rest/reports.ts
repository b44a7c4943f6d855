import { profitAndLossSchema, reportQuery, runwaySchema, spendingSchema } from '../../shared/domain/reports/schema';
import { profitAndLoss, runway, spending } from '../../shared/domain/reports/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

export const reportRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get', path: '/reports/profit-and-loss', tag: 'Reports', summary: 'Income, expenses and profit by month',
    description: 'From posted and completed transactions in one currency; internal transfers and excluded categories are left out.',
    query: reportQuery, response: profitAndLossSchema,
    handler: ({ principal, query }) => profitAndLoss(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get', path: '/reports/spending', tag: 'Reports', summary: 'Expenses by category',
    query: reportQuery, response: spendingSchema,
    handler: ({ principal, query }) => spending(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get', path: '/reports/runway', tag: 'Reports', summary: 'Cash runway',
    description: 'Months the current bank balance lasts at the average monthly burn of the period.',
    query: reportQuery, response: runwaySchema,
    handler: ({ principal, query }) => runway(db, principal.teamId, query),
  }),
];
