import type { Db } from '../../db/knex';
import { Team, TrackerEntry, TrackerProject } from '../../db/models';
import { dbNow } from '../../db/timestamps';
import { badRequest, conflict } from '../../errors';
import type { InvoiceDto, InvoiceFromTrackerBody } from './schema';
import { createInvoice } from './service';

interface UnbilledEntry {
  id: string;
  date: string;
  description: string | null;
  seconds: number;
  rate: number | null;
  currency: string | null;
}

/**
 * A draft invoice from a project's unbilled, finished entries of a period: one line per entry (its
 * hours × its rate, else the project's), and the entries marked billed by this invoice, in one
 * transaction. The entries are locked while they are billed, so two requests at once bill each once;
 * asking again finds nothing left (409).
 */
export async function createInvoiceFromTracker(db: Db, teamId: string, userId: string, body: InvoiceFromTrackerBody): Promise<InvoiceDto> {
  return db.transaction(async (trx) => {
    const project = await TrackerProject.query(trx).findOne({ teamId, id: body.projectId });
    if (!project) throw badRequest('Invalid project', [{ field: 'projectId', message: 'no such project in your team' }]);
    const entries = await trx('tracker_entries')
      .where({ teamId, projectId: project.id, billed: false })
      .whereNotNull('stop')
      .whereBetween('date', [body.from, body.to])
      .orderBy([{ column: 'date' }, { column: 'start' }])
      .forUpdate()
      .select<UnbilledEntry[]>(
        'id',
        'date',
        'description',
        'rate',
        'currency',
        trx.raw('coalesce(duration, extract(epoch from stop - start))::int as seconds'),
      );
    if (!entries.length) throw conflict(`No unbilled time on ${project.name} from ${body.from} to ${body.to}`);

    const unpriced = entries.filter((e) => (e.rate ?? project.rate) === null);
    if (unpriced.length) {
      throw badRequest(`${project.name} has no hourly rate, nor have ${unpriced.length} of its entries`, [
        { field: 'projectId', message: 'set the project’s rate first' },
      ]);
    }
    const currencies = new Set(entries.map((e) => (e.currency ?? project.currency)?.trim()).filter(Boolean));
    if (currencies.size > 1) throw badRequest(`The entries are in ${[...currencies].join(' and ')}: bill them separately`);
    const currency = [...currencies][0] ?? (await Team.query(trx).findById(teamId).select('baseCurrency'))?.baseCurrency ?? null;
    if (!currency)
      throw badRequest('Neither the project nor the team has a currency to bill in', [
        { field: 'projectId', message: 'set the project’s currency' },
      ]);

    const invoice = await createInvoice(trx, teamId, userId, {
      customerId: project.customerId,
      currency,
      issueDate: body.issueDate,
      dueDate: body.dueDate,
      note: body.note,
      lineItems: entries.map((e) => ({
        name: `${e.description?.trim() || project.name} (${e.date})`,
        quantity: Math.round((e.seconds / 3600) * 10_000) / 10_000,
        unit: 'hours',
        price: (e.rate ?? project.rate) as number,
      })),
    });
    await TrackerEntry.query(trx)
      .whereIn(
        'id',
        entries.map((e) => e.id),
      )
      .patch({ billed: true, invoiceId: invoice.id, updatedAt: dbNow() });
    return invoice;
  });
}
