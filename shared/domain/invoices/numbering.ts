import type { Db } from '../../db/knex';
import { Invoice, Team } from '../../db/models';
import { padNumber, takeNextNumber } from '../common/document-numbers';

/**
 * The number an invoice is issued with: the team's prefix and the next number of its series
 * (`INV-0001`), at least the team's chosen `invoiceNextNumber`. A number of the series that an
 * invoice already carries (one chosen by hand) is passed over: it is in use, so no gap is left.
 * Called inside the issuing transaction, which holds the series' counter until it commits.
 */
export async function nextInvoiceNumber(trx: Db, teamId: string): Promise<string> {
  const team = await Team.query(trx).findById(teamId).select('invoicePrefix', 'invoiceNextNumber').throwIfNotFound();
  for (;;) {
    const number = `${team.invoicePrefix}${padNumber(await takeNextNumber(trx, teamId, `invoice:${team.invoicePrefix}`, team.invoiceNextNumber ?? 1))}`;
    if (!(await Invoice.query(trx).findOne({ teamId, invoiceNumber: number }).select('id'))) return number;
  }
}

/** How an invoice is named where a number is expected: its number, or `Draft` before it is issued. */
export const numberShown = (invoice: { invoiceNumber: string | null }): string => invoice.invoiceNumber ?? 'Draft';
