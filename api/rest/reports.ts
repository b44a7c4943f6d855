import { profitAndLossSchema, reportQuery, runwaySchema, spendingSchema } from '../../shared/domain/reports/schema';
import { profitAndLoss, runway, spending } from '../../shared/domain/reports/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { one } from './replies';

export const reportRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/reports/profit-and-loss',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Income, expenses and profit by month',
    description: 'From posted and completed transactions in one currency; internal transfers and excluded categories are left out.',
    query: reportQuery,
    reply: one(profitAndLossSchema),
    handler: ({ principal, query }) => profitAndLoss(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/spending',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Expenses by category',
    query: reportQuery,
    reply: one(spendingSchema),
    handler: ({ principal, query }) => spending(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/runway',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Cash runway',
    description: 'Months the current bank balance lasts at the average monthly burn of the period.',
    query: reportQuery,
    reply: one(runwaySchema),
    handler: ({ principal, query }) => runway(db, principal.teamId, query),
  }),
];
