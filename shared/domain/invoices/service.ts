import type { Db } from '../../db/knex';
import { containsPattern } from '../common/query';
import { badRequest, conflict, notFound } from '../../errors';
import { newestFirstPage, type Page } from '../common/cursor';
import type { CreateInvoiceBody, InvoiceDto, ListInvoicesQuery, UpdateInvoiceBody } from './schema';
import { invoiceTotals } from './totals';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const DAY = 86_400_000;

function selectInvoices(db: Db, teamId: string) {
  return db('invoices as i')
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .where('i.team_id', teamId)
    .select(
      'i.*',
      db.raw('i.created_at::text as cursor_created_at'),
      db.raw(`case when c.id is null then null else json_build_object('id', c.id, 'name', c.name) end as customer`),
      db.raw(`coalesce((select json_agg(json_build_object('name', l.name, 'quantity', l.quantity, 'unit', l.unit, 'price', l.price,
                          'vatRate', l.vat_rate, 'taxRate', l.tax_rate) order by l.position)
                        from invoice_line_items l where l.invoice_id = i.id), '[]') as line_items`),
    );
}

function toDto(r: any): InvoiceDto {
  return {
    id: r.id,
    invoiceNumber: r.invoiceNumber,
    status: r.status,
    customer: r.customer,
    currency: r.currency,
    // json_agg returns numerics as JSON numbers already.
    lineItems: r.lineItems,
    subtotal: r.subtotal,
    vat: r.vat,
    tax: r.tax,
    discount: r.discount,
    amount: r.amount,
    issueDate: r.issueDate,
    dueDate: r.dueDate,
    note: r.note,
    sentAt: iso(r.sentAt),
    paidAt: iso(r.paidAt),
    paymentReference: r.paymentReference,
    refundedAt: iso(r.refundedAt),
    canceledAt: iso(r.canceledAt),
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  };
}

export async function listInvoices(db: Db, teamId: string, query: ListInvoicesQuery): Promise<Page<InvoiceDto>> {
  const q = selectInvoices(db, teamId);
  if (query.statuses) q.whereIn('i.status', query.statuses);
  if (query.customers) q.whereIn('i.customer_id', query.customers);
  if (query.q) {
    const like = containsPattern(query.q);
    q.where((w) => w.whereILike('i.invoice_number', like).orWhereILike('c.name', like));
  }
  return newestFirstPage(q, 'i', query, toDto);
}

export async function getInvoice(db: Db, teamId: string, id: string): Promise<InvoiceDto> {
  const [row] = await selectInvoices(db, teamId).where('i.id', id);
  if (!row) throw notFound(`Invoice ${id} not found`);
  return toDto(row);
}

async function assertCustomer(db: Db, teamId: string, customerId: string | null | undefined) {
  if (customerId && !(await db('customers').where({ teamId, id: customerId }).first('id'))) {
    throw badRequest('Invalid customer', [{ field: 'customerId', message: 'no such customer in your team' }]);
  }
}

async function writeLines(db: Db, teamId: string, invoiceId: string, lines: NonNullable<UpdateInvoiceBody['lineItems']>) {
  await db('invoice_line_items').where({ teamId, invoiceId }).delete();
  await db('invoice_line_items').insert(
    lines.map((l, position) => ({ teamId, invoiceId, position, name: l.name, quantity: l.quantity, unit: l.unit ?? null, price: l.price, vatRate: l.vatRate ?? null, taxRate: l.taxRate ?? null })),
  );
}

async function nextInvoiceNumber(db: Db, teamId: string): Promise<string> {
  const { rows } = await db.raw(
    `select coalesce(max((regexp_match(invoice_number, '^INV-(\\d+)$'))[1]::int), 0) + 1 as n from invoices where team_id = ?`,
    [teamId],
  );
  return `INV-${String(rows[0].n).padStart(4, '0')}`;
}

/** Creates a draft; its number defaults to the next INV-nnnn of the team. */
export async function createInvoice(db: Db, teamId: string, userId: string, body: CreateInvoiceBody): Promise<InvoiceDto> {
  await assertCustomer(db, teamId, body.customerId);
  const totals = invoiceTotals(body.lineItems, body.discount ?? 0);
  if (totals.amount < 0) throw badRequest('The discount exceeds the invoice total', [{ field: 'discount', message: 'larger than the total' }]);
  for (let attempt = 0; ; attempt++) {
    try {
      const id = await db.transaction(async (trx) => {
        const { lineItems, invoiceNumber, ...fields } = body;
        const [row] = await trx('invoices')
          .insert({ ...fields, ...totals, teamId, createdBy: userId, status: 'draft', invoiceNumber: invoiceNumber ?? (await nextInvoiceNumber(trx, teamId)) })
          .returning('id');
        await writeLines(trx, teamId, row.id, lineItems);
        return row.id as string;
      });
      return getInvoice(db, teamId, id);
    } catch (err) {
      if ((err as { code?: string }).code !== '23505') throw err;
      // An explicit number that is taken is the caller's conflict; a generated one raced another create.
      if (body.invoiceNumber) throw conflict(`Invoice number ${body.invoiceNumber} is already used`);
      if (attempt >= 3) throw conflict('Could not allocate the next invoice number; retry');
    }
  }
}

export async function updateInvoice(db: Db, teamId: string, id: string, body: UpdateInvoiceBody): Promise<InvoiceDto> {
  await db.transaction(async (trx) => {
    const current = await trx('invoices').where({ teamId, id }).forUpdate().first();
    if (!current) throw notFound(`Invoice ${id} not found`);
    if (current.status !== 'draft') throw conflict(`Only drafts can be edited; this invoice is ${current.status}`);
    await assertCustomer(trx, teamId, body.customerId);
    const { lineItems, ...fields } = body;
    const lines = lineItems ?? (await trx('invoice_line_items').where({ invoiceId: id }).orderBy('position'));
    const totals = invoiceTotals(lines, body.discount ?? current.discount);
    if (totals.amount < 0) throw badRequest('The discount exceeds the invoice total', [{ field: 'discount', message: 'larger than the total' }]);
    const issueDate = body.issueDate === undefined ? current.issueDate : body.issueDate;
    const dueDate = body.dueDate === undefined ? current.dueDate : body.dueDate;
    if (issueDate && dueDate && issueDate > dueDate) throw badRequest('Invalid dates', [{ field: 'dueDate', message: 'before issueDate' }]);
    await trx('invoices').where({ teamId, id }).update({ ...fields, ...totals, updatedAt: new Date() });
    if (lineItems) await writeLines(trx, teamId, id, lineItems);
  });
  return getInvoice(db, teamId, id);
}

const TRANSITIONS: Record<string, { from: string[]; to: string }> = {
  finalize: { from: ['draft'], to: 'unpaid' },
  'mark-paid': { from: ['unpaid', 'overdue'], to: 'paid' },
  cancel: { from: ['draft', 'scheduled', 'unpaid', 'overdue'], to: 'canceled' },
};

/** The status machine: draft → unpaid → paid; draft/scheduled/unpaid/overdue → canceled. */
export async function applyInvoiceAction(
  db: Db,
  teamId: string,
  id: string,
  action: keyof typeof TRANSITIONS,
  body: { paidAt?: string; paymentReference?: string },
): Promise<InvoiceDto> {
  await db.transaction(async (trx) => {
    const current = await trx('invoices').where({ teamId, id }).forUpdate().first();
    if (!current) throw notFound(`Invoice ${id} not found`);
    const t = TRANSITIONS[action];
    if (!t.from.includes(current.status)) throw conflict(`Cannot ${action.replace('-', ' ')} an invoice that is ${current.status}`);
    const now = new Date();
    const patch: Record<string, unknown> = { status: t.to, updatedAt: now };
    if (action === 'finalize') {
      const issue = current.issueDate ?? now.toISOString().slice(0, 10);
      patch.issueDate = issue;
      patch.dueDate = current.dueDate ?? new Date(new Date(`${issue}T00:00:00Z`).getTime() + 30 * DAY).toISOString().slice(0, 10);
    }
    if (action === 'mark-paid') {
      patch.paidAt = body.paidAt ? new Date(body.paidAt) : now;
      patch.paymentReference = body.paymentReference ?? null;
    }
    if (action === 'cancel') patch.canceledAt = now;
    await trx('invoices').where({ teamId, id }).update(patch);
  });
  return getInvoice(db, teamId, id);
}

/** Only drafts and canceled invoices can be deleted: an issued invoice is part of the books. */
export async function deleteInvoice(db: Db, teamId: string, id: string): Promise<void> {
  const row = await db('invoices').where({ teamId, id }).first('status');
  if (!row) throw notFound(`Invoice ${id} not found`);
  if (!['draft', 'canceled'].includes(row.status)) throw conflict(`Only draft or canceled invoices can be deleted; this one is ${row.status}`);
  await db('invoices').where({ teamId, id }).delete();
}
