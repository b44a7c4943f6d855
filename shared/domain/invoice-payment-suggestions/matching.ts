import type { Db } from '../../db/knex';
import { Transaction } from '../../db/models';
import type { TemporalGateway } from '../../temporal/client';
import { minorUnitsSql, roundMoney } from '../currencies/money';
import { amountDueSql } from '../invoices/amount-due';
import { recordInvoicePayment } from '../invoices/lifecycle';
import { notify } from '../notifications/service';

/** Incoming transactions this recent are looked at: an invoice is seldom paid months after the bank booked it. */
const LOOKBACK_DAYS = 120;
/** A transaction that could pay several invoices is offered for at most this many. */
const MAX_SUGGESTIONS_PER_TRANSACTION = 3;

type Reason = 'number' | 'customer' | 'amount';

interface Candidate {
  transactionId: string;
  invoiceId: string;
  invoiceNumber: string;
  amount: number;
  due: number;
  currency: string;
  reason: Reason;
}

// The same amount: equal in the currency's minor unit (a yen apart is different, a tenth of a fils too).
const SAME_AMOUNT = `abs(o.due - x.amount) < 0.5 * power(10::numeric, -${minorUnitsSql('o.currency')})`;

/**
 * Incoming transactions that nothing has claimed yet, beside the open invoices they could pay: the
 * same currency, and the amount due exactly (or less than due when the transfer names the invoice:
 * a part payment). Why each pair matches: the invoice number in the transfer's text, the customer's
 * name as the payer, or the amount alone.
 */
async function candidates(db: Db, teamId: string): Promise<Candidate[]> {
  const { rows } = await db.raw<{ rows: Candidate[] }>(
    `with open as (
       select i.id, i.invoice_number, i.currency, ${amountDueSql('i')} as due, lower(c.name) as customer
         from invoices i left join customers c on c.id = i.customer_id
        where i.team_id = ? and i.status in ('unpaid', 'overdue')),
     incoming as (
       select t.id, t.amount, t.currency,
              lower(concat_ws(' ', t.name, t.description, t.counterparty_name, t.merchant_name)) as text
         from transactions t
        where t.team_id = ? and t.amount > 0 and not t.internal and t.status in ('posted', 'completed')
          and t.date >= current_date - ?::int
          and not exists (select 1 from invoice_payments p where p.transaction_id = t.id)
          and not exists (select 1 from invoice_payment_suggestions s where s.transaction_id = t.id))
     select x.id as "transactionId", o.id as "invoiceId", o.invoice_number as "invoiceNumber", x.amount::float8 as amount,
            o.due::float8 as due, o.currency,
            case when n.named then 'number'
                 when o.customer is not null and strpos(x.text, o.customer) > 0 then 'customer'
                 else 'amount' end as reason
       from incoming x join open o on o.currency = x.currency
       -- Named: the number appears, and not as the start of a longer one (INV-0001 is not in INV-00012).
       cross join lateral (select strpos(x.text, lower(o.invoice_number)) as at) p
       cross join lateral (select p.at > 0 and substr(x.text, p.at + char_length(o.invoice_number), 1) !~ '[0-9]' as named) n
      where ${SAME_AMOUNT} or (x.amount < o.due and n.named)
      order by x.id, o.invoice_number`,
    [teamId, teamId, LOOKBACK_DAYS],
  );
  return rows;
}

const RANK: Record<Reason, number> = { number: 0, customer: 1, amount: 2 };

export interface MatchOutcome {
  transactions: number;
  paid: number;
  suggested: number;
}

/**
 * Looks at the team's new incoming transactions for invoice payments. A transfer that names exactly
 * one invoice and pays exactly what is due is recorded as its payment at once (the invoice is paid and
 * its lifecycle ends); anything less certain becomes a suggestion to confirm: a named invoice paid in
 * part, the customer's name with the amount due, or an amount that only one open invoice has.
 */
export async function matchInvoicePayments(db: Db, temporal: TemporalGateway, teamId: string): Promise<MatchOutcome> {
  const byTransaction = new Map<string, Candidate[]>();
  for (const c of await candidates(db, teamId)) byTransaction.set(c.transactionId, [...(byTransaction.get(c.transactionId) ?? []), c]);
  const outcome: MatchOutcome = { transactions: byTransaction.size, paid: 0, suggested: 0 };
  for (const [transactionId, all] of byTransaction) {
    const best = Math.min(...all.map((c) => RANK[c.reason]));
    const top = all.filter((c) => RANK[c.reason] === best);
    const certain =
      top.length === 1 &&
      top[0].reason === 'number' &&
      roundMoney(top[0].due, top[0].currency) === roundMoney(top[0].amount, top[0].currency);
    if (certain) {
      const c = top[0];
      const tx = await Transaction.query(db).findOne({ teamId, id: transactionId }).select('date', 'name').throwIfNotFound();
      await recordInvoicePayment(
        db,
        temporal,
        { teamId, invoiceId: c.invoiceId, userId: null },
        { amount: c.amount, paidAt: new Date(`${tx.date}T12:00:00Z`), reference: tx.name, transactionId },
      );
      await notify(db, {
        teamId,
        type: 'invoice_paid_by_transfer',
        metadata: { invoiceId: c.invoiceId, invoiceNumber: c.invoiceNumber, transactionId, amount: c.amount, currency: c.currency },
      });
      outcome.paid += 1;
      continue;
    }
    // An amount alone is a hint only when a single open invoice has it.
    if (best === RANK.amount && top.length > 1) continue;
    for (const c of top.slice(0, MAX_SUGGESTIONS_PER_TRANSACTION)) {
      const row = (
        await db('invoice_payment_suggestions')
          .insert({ teamId, invoiceId: c.invoiceId, transactionId, reason: c.reason })
          .onConflict(['invoice_id', 'transaction_id'])
          .ignore()
          .returning<{ id: string }[]>('id')
      ).at(0);
      // Already suggested (two syncs at once): said once.
      if (!row) continue;
      await notify(db, {
        teamId,
        type: 'invoice_payment_suggested',
        metadata: {
          suggestionId: row.id,
          invoiceId: c.invoiceId,
          invoiceNumber: c.invoiceNumber,
          transactionId,
          amount: c.amount,
          currency: c.currency,
        },
      });
      outcome.suggested += 1;
    }
  }
  return outcome;
}
