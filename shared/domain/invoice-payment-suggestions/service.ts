import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { InvoicePaymentSuggestion } from '../../db/models';
import { dbNow, toIso, toIsoOrNull } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { amountDueSql } from '../invoices/amount-due';
import { recordInvoicePayment } from '../invoices/lifecycle';
import type { listPaymentSuggestionsQuery, PaymentSuggestionDto } from './schema';

interface SuggestionRow extends CursorRow {
  status: PaymentSuggestionDto['status'];
  reason: PaymentSuggestionDto['reason'];
  invoice: PaymentSuggestionDto['invoice'];
  transaction: PaymentSuggestionDto['transaction'];
  createdAt: Date;
  decidedAt: Date | null;
}

const selectSuggestions = (db: Db, teamId: string) =>
  db('invoice_payment_suggestions as s')
    .join('invoices as i', 'i.id', 's.invoice_id')
    .join('transactions as t', 't.id', 's.transaction_id')
    .where('s.team_id', teamId)
    .select<SuggestionRow[]>(
      's.id',
      's.status',
      's.reason',
      's.created_at',
      's.decided_at',
      db.raw('s.created_at::text as cursor_created_at'),
      db.raw(
        `json_build_object('id', i.id, 'invoiceNumber', i.invoice_number, 'amountDue', ${amountDueSql('i')}::float8, 'currency', i.currency) as invoice`,
      ),
      db.raw(
        `json_build_object('id', t.id, 'date', t.date, 'name', t.name, 'amount', t.amount::float8, 'currency', t.currency) as transaction`,
      ),
    );

const toDto = ({ cursorCreatedAt: _c, createdAt, decidedAt, ...fields }: SuggestionRow): PaymentSuggestionDto => ({
  ...fields,
  createdAt: toIso(createdAt),
  decidedAt: toIsoOrNull(decidedAt),
});

export function listPaymentSuggestions(
  db: Db,
  teamId: string,
  query: z.infer<typeof listPaymentSuggestionsQuery>,
): Promise<Page<PaymentSuggestionDto>> {
  return newestFirstPage(selectSuggestions(db, teamId).where('s.status', query.status), 's', query, toDto);
}

async function getSuggestion(db: Db, teamId: string, id: string): Promise<PaymentSuggestionDto> {
  const row = (await selectSuggestions(db, teamId).where('s.id', id)).at(0);
  if (!row) throw notFound(`Payment suggestion ${id} not found`);
  return toDto(row);
}

/**
 * Records the transaction as the invoice's payment (in full, or in part when it is less than due),
 * and declines the other suggestions for the same transaction. 409 once decided, or when the invoice
 * is no longer open.
 */
export async function confirmPaymentSuggestion(
  db: Db,
  temporal: TemporalGateway,
  target: { teamId: string; userId: string | null },
  id: string,
): Promise<PaymentSuggestionDto> {
  const { teamId } = target;
  const s = await getSuggestion(db, teamId, id);
  if (s.status !== 'pending') throw conflict(`This suggestion was already ${s.status}`);
  await recordInvoicePayment(
    db,
    temporal,
    { teamId, invoiceId: s.invoice.id, userId: target.userId },
    {
      amount: Math.min(s.transaction.amount, s.invoice.amountDue),
      paidAt: new Date(`${s.transaction.date}T12:00:00Z`),
      reference: s.transaction.name,
      transactionId: s.transaction.id,
    },
  );
  await db.transaction(async (trx) => {
    const decided = { decidedAt: dbNow(), decidedBy: target.userId };
    await InvoicePaymentSuggestion.query(trx)
      .where({ teamId, id })
      .patch({ status: 'confirmed', ...decided });
    await InvoicePaymentSuggestion.query(trx)
      .where({ teamId, transactionId: s.transaction.id, status: 'pending' })
      .patch({ status: 'declined', ...decided });
  });
  return getSuggestion(db, teamId, id);
}

/** The transaction is not this invoice's payment; it is not suggested for it again. */
export async function declinePaymentSuggestion(
  db: Db,
  target: { teamId: string; userId: string | null },
  id: string,
): Promise<PaymentSuggestionDto> {
  const n = await InvoicePaymentSuggestion.query(db)
    .where({ teamId: target.teamId, id, status: 'pending' })
    .patch({ status: 'declined', decidedAt: dbNow(), decidedBy: target.userId });
  if (!n) {
    const s = await getSuggestion(db, target.teamId, id);
    throw conflict(`This suggestion was already ${s.status}`);
  }
  return getSuggestion(db, target.teamId, id);
}
