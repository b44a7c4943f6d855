import type { Db } from '../../db/knex';
import { padNumber, takeNextNumber } from '../common/document-numbers';

/**
 * A credit note's number: `CN-<year>-<nnnn>`, its own gap-free series per team and year of issue,
 * apart from the invoices' (whose prefix a team chooses); the year in it makes the series restart
 * each January without two years' notes sharing a number.
 */
export async function nextCreditNoteNumber(trx: Db, teamId: string, issueDate: string): Promise<string> {
  const year = issueDate.slice(0, 4);
  return `CN-${year}-${padNumber(await takeNextNumber(trx, teamId, `credit-note:${year}`))}`;
}
