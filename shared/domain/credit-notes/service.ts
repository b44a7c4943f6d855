import type { Db } from '../../db/knex';
import { Invoice } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { notFound } from '../../errors';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import type { CreditNoteDto, ListCreditNotesQuery } from './schema';

interface CreditNoteRow extends CursorRow {
  creditNoteNumber: string;
  typeCode: '381';
  invoice: CreditNoteDto['invoice'];
  customer: CreditNoteDto['customer'];
  currency: string;
  lineItems: CreditNoteDto['lineItems'];
  subtotal: number;
  vat: number;
  tax: number;
  discount: number;
  amount: number;
  reason: string | null;
  issueDate: string;
  emailDelivery: boolean;
  sentAt: Date | null;
  createdAt: Date;
}

// A list query (keyset; the invoice, its customer and the lines as json in the same round trip): typed Knex.
function selectCreditNotes(db: Db, teamId: string) {
  return db('credit_notes as n')
    .join('invoices as i', (on) => on.on('i.id', 'n.invoice_id').andOn('i.team_id', 'n.team_id'))
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .where('n.team_id', teamId)
    .select<CreditNoteRow[]>(
      'n.id',
      'n.credit_note_number',
      'n.type_code',
      'n.currency',
      'n.subtotal',
      'n.vat',
      'n.tax',
      'n.discount',
      'n.amount',
      'n.reason',
      'n.issue_date',
      'n.email_delivery',
      'n.sent_at',
      'n.created_at',
      db.raw('n.created_at::text as cursor_created_at'),
      db.raw(`json_build_object('id', i.id, 'invoiceNumber', i.invoice_number, 'issueDate', i.issue_date) as invoice`),
      db.raw(`case when c.id is null then null else json_build_object('id', c.id, 'name', c.name) end as customer`),
      db.raw(`coalesce((select json_agg(json_build_object('line', l.invoice_line, 'name', l.name, 'quantity', l.quantity, 'unit', l.unit,
                          'price', l.price, 'vatRate', l.vat_rate, 'taxRate', l.tax_rate, 'amount', l.net) order by l.position)
                        from credit_note_line_items l where l.credit_note_id = n.id), '[]') as line_items`),
    );
}

const toDto = ({ cursorCreatedAt: _cursor, sentAt, createdAt, ...fields }: CreditNoteRow): CreditNoteDto => ({
  ...fields,
  sentAt: toIsoOrNull(sentAt),
  createdAt: toIso(createdAt),
});

/** The team's credit notes, newest first; of one invoice with `invoiceId`. */
export function listCreditNotes(db: Db, teamId: string, query: ListCreditNotesQuery): Promise<Page<CreditNoteDto>> {
  const q = selectCreditNotes(db, teamId);
  if (query.invoiceId) q.where('n.invoice_id', query.invoiceId);
  return newestFirstPage(q, 'n', query, toDto);
}

/** Every credit note of one invoice, oldest first; 404 for an invoice not in the team. */
export async function creditNotesOfInvoice(db: Db, teamId: string, invoiceId: string): Promise<CreditNoteDto[]> {
  if (!(await Invoice.query(db).findOne({ teamId, id: invoiceId }).select('id'))) throw notFound(`Invoice ${invoiceId} not found`);
  const rows = await selectCreditNotes(db, teamId).where('n.invoice_id', invoiceId).orderBy('n.created_at').orderBy('n.id');
  return rows.map(toDto);
}

export async function getCreditNote(db: Db, teamId: string, id: string): Promise<CreditNoteDto> {
  const row = (await selectCreditNotes(db, teamId).where('n.id', id)).at(0);
  if (!row) throw notFound(`Credit note ${id} not found`);
  return toDto(row);
}
