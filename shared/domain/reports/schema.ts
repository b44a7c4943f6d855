import { z } from 'zod';
import { isoDate } from '../common/query';
import { currencyCode } from '../common/currency';

const periodFields = {
  from: isoDate.meta({ description: 'First day, inclusive.' }),
  to: isoDate.meta({ description: 'Last day, inclusive.' }),
  currency: currencyCode.optional().meta({
    description:
      "The currency the report is in. Default: the team's base currency, else its most used one. Transactions in other currencies are converted at the ECB reference rate of their date.",
  }),
};

const FIVE_YEARS_MS = 5 * 366 * 86_400_000;

function checkPeriod(q: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (q.from > q.to) ctx.addIssue({ code: 'custom', message: '`from` must not be after `to`', path: ['from'] });
  else if (new Date(q.to).getTime() - new Date(q.from).getTime() > FIVE_YEARS_MS)
    ctx.addIssue({ code: 'custom', message: 'at most five years', path: ['to'] });
}

export const reportQuery = z.object(periodFields).superRefine(checkPeriod);
export type ReportQuery = z.infer<typeof reportQuery>;

export const revenueQuery = z
  .object({
    ...periodFields,
    type: z
      .enum(['gross', 'net'])
      .default('net')
      .meta({ description: '`gross`: as booked; `net`: without the tax each transaction carries. Default `net`.' }),
  })
  .superRefine(checkPeriod);
export type RevenueQuery = z.infer<typeof revenueQuery>;

const money = z
  .number()
  .meta({ description: 'In the report currency, rounded to its minor unit (cents for EUR, whole yen for JPY, fils for BHD).' });
const monthKey = z.string().meta({ description: 'YYYY-MM.' });

const conversionSchema = z
  .object({
    converted: z.number().int().meta({ description: 'Transactions in another currency that were converted.' }),
    unconvertedTransactions: z.number().int().meta({
      description: 'Every transaction left out for want of an exchange rate, including those past the entries `unconverted` lists.',
    }),
    unconverted: z
      .array(
        z.object({
          currency: z.string(),
          date: z.string(),
          transactions: z.number().int(),
          amount: z.number().meta({ description: 'Their net amount in their own currency.' }),
        }),
      )
      .meta({
        description:
          'Transactions left out because no exchange rate was stored within a week before their date, by currency and day (at most 100 entries, oldest first; `unconvertedTransactions` counts them all).',
      }),
  })
  .meta({ id: 'ReportConversion' });
export type Conversion = z.infer<typeof conversionSchema>;

/** What every report says about itself: its currency, period, comparison period and conversions. */
const reportHeader = {
  currency: z.string().nullable().meta({ description: 'null when the team has no transactions and no base currency.' }),
  from: z.string(),
  to: z.string(),
  conversion: conversionSchema,
};
const previousPeriod = {
  from: z.string().meta({ description: 'The period of the same length just before `from`.' }),
  to: z.string(),
  // The previous period's own: its figures leave out what it lists, as the report period's do.
  conversion: conversionSchema,
};

const month = z.object({
  month: monthKey,
  income: money,
  expenses: money.meta({ description: 'Positive number: money out.' }),
  profit: money,
});

export const profitAndLossSchema = z
  .object({
    ...reportHeader,
    income: money,
    expenses: money,
    profit: money,
    previous: z.object({ ...previousPeriod, income: money, expenses: money, profit: money }),
    months: z.array(month).meta({ description: 'Every month of the period, including empty ones.' }),
  })
  .meta({
    id: 'ProfitAndLoss',
    description:
      'Income, expenses and profit from posted and completed transactions; internal transfers and excluded categories are left out.',
  });

export const revenueSchema = z
  .object({
    ...reportHeader,
    type: z.enum(['gross', 'net']),
    total: money,
    previous: z.object({ ...previousPeriod, total: money }),
    change: z.number().nullable().meta({ description: 'total ÷ previous total − 1; null when the previous total is 0.' }),
    months: z
      .array(z.object({ month: monthKey, current: money, previous: money.meta({ description: 'The same month of the previous period.' }) }))
      .meta({ description: 'Every month of the period, each beside its counterpart in the previous period.' }),
  })
  .meta({ id: 'Revenue', description: 'Money in, gross or net of tax.' });

export const expensesSchema = z
  .object({
    ...reportHeader,
    total: money,
    recurring: money.meta({ description: 'Expenses of transactions marked recurring (subscriptions, rent, salaries).' }),
    oneOff: money,
    averagePerMonth: money,
    previous: z.object({ ...previousPeriod, total: money, recurring: money, oneOff: money }),
    months: z.array(z.object({ month: monthKey, recurring: money, oneOff: money, total: money })),
  })
  .meta({ id: 'Expenses', description: 'Money out, recurring versus one-off.' });

export const spendingSchema = z
  .object({
    ...reportHeader,
    total: money,
    previous: z.object({ ...previousPeriod, total: money }),
    categories: z.array(
      z.object({
        slug: z.string().nullable().meta({ description: 'null: uncategorised.' }),
        name: z.string(),
        color: z.string().nullable(),
        amount: money,
        share: z.number().meta({ description: 'Fraction of total, 0–1.' }),
        previousAmount: money.meta({ description: 'The same category in the previous period.' }),
      }),
    ),
  })
  .meta({ id: 'Spending', description: 'Expenses by category, largest first.' });

export const burnRateSchema = z
  .object({
    ...reportHeader,
    averageMonthlyBurn: money,
    previous: z.object({ ...previousPeriod, averageMonthlyBurn: money }),
    months: z.array(z.object({ month: monthKey, burn: money.meta({ description: 'Expenses minus income, 0 in a profitable month.' }) })),
  })
  .meta({ id: 'BurnRate' });

export const cashFlowSchema = z
  .object({
    ...reportHeader,
    inflow: money,
    outflow: money,
    net: money,
    previous: z.object({ ...previousPeriod, inflow: money, outflow: money, net: money }),
    months: z.array(
      z.object({
        month: monthKey,
        inflow: money,
        outflow: money,
        net: money,
        cumulative: money.meta({ description: 'Net flow from the start of the period to the end of this month.' }),
      }),
    ),
  })
  .meta({
    id: 'CashFlow',
    description:
      'All money in and out of the bank accounts, excluded categories included (taxes paid are cash out); internal transfers are left out.',
  });

export const runwaySchema = z
  .object({
    ...reportHeader,
    balance: money.meta({ description: 'Enabled bank accounts, converted at the newest rate.' }),
    monthlyBurn: money.meta({ description: 'Average net money out per month over the period (0 when profitable).' }),
    runwayMonths: z.number().nullable().meta({ description: 'balance ÷ monthlyBurn; null when not burning money.' }),
    accountsLeftOut: z
      .array(z.object({ id: z.string(), name: z.string(), currency: z.string(), balance: z.number() }))
      .meta({ description: 'Accounts whose currency has no stored rate: not in `balance`.' }),
  })
  .meta({ id: 'Runway' });

// ── The VAT report ─────────────────────────────────────────────────────────────────────────────

export const vatReportQuery = z
  .object({ from: periodFields.from, to: periodFields.to })
  .superRefine(checkPeriod)
  .meta({ id: 'VatReportQuery' });
export type VatReportQuery = z.infer<typeof vatReportQuery>;

const vatRateRow = z.object({
  rate: z.number().meta({ description: 'VAT rate in percent.' }),
  net: money.meta({ description: 'The taxable amount at this rate, in the report currency.' }),
  vat: money,
  documents: z
    .number()
    .int()
    .meta({ description: 'Invoices and credit notes (output), or transactions and received e-invoices (input), counted at this rate.' }),
});

const unattributedItem = z.object({
  type: z.enum(['transaction', 'invoice', 'credit_note', 'e_invoice']).meta({
    description: '`e_invoice`: a supplier’s e-invoice received in the inbox (`id` is the inbox item’s).',
  }),
  id: z.uuid(),
  date: z.string(),
  amount: z.number().meta({ description: 'Gross, in its own currency (negative: an expense or a credit note).' }),
  currency: z.string(),
  reason: z.enum(['no_category', 'no_rate', 'no_exchange_rate']).meta({
    description:
      '`no_category`: an expense without a category; `no_rate`: its category (and the transaction) carry no VAT rate; `no_exchange_rate`: in another currency, with no stored rate within a week before its date.',
  }),
});

const countedTwiceItem = z.object({
  inboxItemId: z.uuid().meta({ description: 'The received e-invoice’s inbox item.' }),
  invoiceDate: z.string().meta({ description: 'Its issue date.' }),
  transactionId: z.uuid().meta({ description: 'The expense that is probably its payment.' }),
  transactionDate: z.string(),
  amount: z.number().meta({ description: 'The expense, in its own currency (negative).' }),
  currency: z.string(),
});

export const vatReportSchema = z
  .object({
    currency: z.string().nullable().meta({ description: "The team's base currency (EUR when it has none)." }),
    from: z.string(),
    to: z.string(),
    output: z
      .object({ rates: z.array(vatRateRow), net: money, vat: money })
      .meta({ description: 'VAT charged: issued invoices of the period by their issue date, less credit notes of the period.' }),
    input: z.object({ rates: z.array(vatRateRow), net: money, vat: money }).meta({
      description:
        'VAT paid, reported as positive figures. Received e-invoices (inbox items read from a supplier’s Factur-X, XRechnung, UBL or CII, paid or not) by their issue date, each at its own exact VAT breakdown, less received credit notes; and posted expenses of the period (negative amounts, internal transfers left out) by their date, at the transaction’s own VAT rate (or amount), else its category’s. An expense matched to a received e-invoice counts once, through the e-invoice.',
    }),
    payable: money.meta({ description: 'Output VAT less input VAT: negative is a refund.' }),
    countedTwice: z
      .object({
        count: z.number().int(),
        items: z.array(countedTwiceItem).meta({ description: 'Oldest e-invoice first, at most 200.' }),
      })
      .meta({
        description:
          'Received e-invoices not matched to a payment, each beside an expense with exactly its amount in its currency, paid from 7 days before its issue date to 120 days after, also unmatched and counted at a VAT rate: until the payment is matched to the inbox item (`POST /inbox/{id}/match`), input VAT counts both, here or in the period of the other. Nothing is left out on a guess: a wrong pairing would lose input VAT.',
      }),
    unattributed: z
      .object({
        count: z.number().int().meta({ description: 'Everything left out, including past the 200 listed.' }),
        items: z.array(unattributedItem).meta({ description: 'Oldest first, at most 200.' }),
      })
      .meta({ description: 'What the report could not attribute to a rate or convert, and so left out of the figures.' }),
  })
  .meta({ id: 'VatReport', description: 'Output and input VAT of a period by rate, in the team’s base currency.' });
export type VatReport = z.infer<typeof vatReportSchema>;
