import * as schema from '../../shared/domain/reports/schema';
import { burnRate, cashFlow, expenses, profitAndLoss, revenue, runway, spending } from '../../shared/domain/reports/service';
import { vatReport } from '../../shared/domain/reports/vat';
import { one, query } from './declare';

const IN_BASE_CURRENCY =
  " Everything is in the team's base currency (or `currency`): a transaction in another currency is converted at the stored ECB rate of its date, and `conversion` counts those converted and those left out for want of a rate, listing the left-out ones by day. `previous` is the period of the same length just before, with its own `conversion`.";

export const reports = [
  query('reports.profitAndLoss', 'GET /reports/profit-and-loss', ['reports.read'], {
    summary: 'Income, expenses and profit by month',
    description: `From posted and completed transactions; internal transfers and excluded categories are left out.${IN_BASE_CURRENCY}`,
    input: schema.reportQuery,
    output: one(schema.profitAndLossSchema),
    run: ({ principal, input }, { db }) => profitAndLoss(db, principal.teamId, input),
  }),
  query('reports.revenue', 'GET /reports/revenue', ['reports.read'], {
    summary: 'Revenue, gross or net of tax, by month',
    description: `Money in; \`net\` leaves out the tax each transaction carries (its tax amount, else what its tax rate implies).${IN_BASE_CURRENCY}`,
    input: schema.revenueQuery,
    output: one(schema.revenueSchema),
    run: ({ principal, input }, { db }) => revenue(db, principal.teamId, input),
  }),
  query('reports.expenses', 'GET /reports/expenses', ['reports.read'], {
    summary: 'Expenses, recurring versus one-off, by month',
    description: `Money out, split by the transactions' recurring flag.${IN_BASE_CURRENCY}`,
    input: schema.reportQuery,
    output: one(schema.expensesSchema),
    run: ({ principal, input }, { db }) => expenses(db, principal.teamId, input),
  }),
  query('reports.spending', 'GET /reports/spending', ['reports.read'], {
    summary: 'Expenses by category',
    description: `Largest first, each with its amount in the previous period.${IN_BASE_CURRENCY}`,
    input: schema.reportQuery,
    output: one(schema.spendingSchema),
    run: ({ principal, input }, { db }) => spending(db, principal.teamId, input),
  }),
  query('reports.burnRate', 'GET /reports/burn-rate', ['reports.read'], {
    summary: 'Monthly burn',
    description: `Expenses minus income per month (0 in a profitable month) and the average.${IN_BASE_CURRENCY}`,
    input: schema.reportQuery,
    output: one(schema.burnRateSchema),
    run: ({ principal, input }, { db }) => burnRate(db, principal.teamId, input),
  }),
  query('reports.cashFlow', 'GET /reports/cash-flow', ['reports.read'], {
    summary: 'Money in and out by month',
    description: `Counts excluded categories too (taxes paid are cash out); internal transfers are left out.${IN_BASE_CURRENCY}`,
    input: schema.reportQuery,
    output: one(schema.cashFlowSchema),
    run: ({ principal, input }, { db }) => cashFlow(db, principal.teamId, input),
  }),
  query('reports.runway', 'GET /reports/runway', ['reports.read'], {
    summary: 'Cash runway',
    description: `Months the current bank balance lasts at the average monthly burn of the period; balances in other currencies are converted at the newest rate.${IN_BASE_CURRENCY}`,
    input: schema.reportQuery,
    output: one(schema.runwaySchema),
    run: ({ principal, input }, { db }) => runway(db, principal.teamId, input),
  }),
  query('reports.vat', 'GET /reports/vat', ['reports.read'], {
    summary: 'VAT by rate: output, input and what is payable',
    description:
      "For a VAT return: output VAT from the invoices issued in the period (by issue date, each line's VAT as printed) less the period's credit notes, and input VAT from the period's expenses at the transaction's own VAT rate or amount, else its category's rate (the default categories carry their country's rates). Everything is in the team's base currency (EUR when it has none): a document or transaction in another currency is converted at the stored ECB rate of its date, rounded to the minor unit per document, and the totals are the sums of those figures. Received e-invoices count at their own exact VAT breakdown by their issue date, and an expense matched to one counts once, through it. `unattributed` lists what was left out: expenses without a category or a rate, and anything in a currency without a rate. `countedTwice` lists received e-invoices and the unmatched payments that are probably theirs, both counted until matched.",
    input: schema.vatReportQuery,
    output: one(schema.vatReportSchema),
    run: ({ principal, input }, { db }) => vatReport(db, principal.teamId, input),
  }),
];
