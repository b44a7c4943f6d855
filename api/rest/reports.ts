import {
  burnRateSchema,
  cashFlowSchema,
  expensesSchema,
  profitAndLossSchema,
  reportQuery,
  revenueQuery,
  revenueSchema,
  runwaySchema,
  spendingSchema,
} from '../../shared/domain/reports/schema';
import { burnRate, cashFlow, expenses, profitAndLoss, revenue, runway, spending } from '../../shared/domain/reports/service';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { one } from './replies';

const IN_BASE_CURRENCY =
  " Everything is in the team's base currency (or `currency`): a transaction in another currency is converted at the stored ECB rate of its date, and `conversion` counts those converted and those left out for want of a rate, listing the left-out ones by day. `previous` is the period of the same length just before, with its own `conversion`.";

export const reportRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/reports/profit-and-loss',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Income, expenses and profit by month',
    description: `From posted and completed transactions; internal transfers and excluded categories are left out.${IN_BASE_CURRENCY}`,
    query: reportQuery,
    reply: one(profitAndLossSchema),
    handler: ({ principal, query }) => profitAndLoss(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/revenue',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Revenue, gross or net of tax, by month',
    description: `Money in; \`net\` leaves out the tax each transaction carries (its tax amount, else what its tax rate implies).${IN_BASE_CURRENCY}`,
    query: revenueQuery,
    reply: one(revenueSchema),
    handler: ({ principal, query }) => revenue(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/expenses',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Expenses, recurring versus one-off, by month',
    description: `Money out, split by the transactions' recurring flag.${IN_BASE_CURRENCY}`,
    query: reportQuery,
    reply: one(expensesSchema),
    handler: ({ principal, query }) => expenses(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/spending',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Expenses by category',
    description: `Largest first, each with its amount in the previous period.${IN_BASE_CURRENCY}`,
    query: reportQuery,
    reply: one(spendingSchema),
    handler: ({ principal, query }) => spending(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/burn-rate',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Monthly burn',
    description: `Expenses minus income per month (0 in a profitable month) and the average.${IN_BASE_CURRENCY}`,
    query: reportQuery,
    reply: one(burnRateSchema),
    handler: ({ principal, query }) => burnRate(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/cash-flow',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Money in and out by month',
    description: `Counts excluded categories too (taxes paid are cash out); internal transfers are left out.${IN_BASE_CURRENCY}`,
    query: reportQuery,
    reply: one(cashFlowSchema),
    handler: ({ principal, query }) => cashFlow(db, principal.teamId, query),
  }),
  defineRoute({
    method: 'get',
    path: '/reports/runway',
    scopes: ['reports.read'],
    tag: 'Reports',
    summary: 'Cash runway',
    description: `Months the current bank balance lasts at the average monthly burn of the period; balances in other currencies are converted at the newest rate.${IN_BASE_CURRENCY}`,
    query: reportQuery,
    reply: one(runwaySchema),
    handler: ({ principal, query }) => runway(db, principal.teamId, query),
  }),
];
