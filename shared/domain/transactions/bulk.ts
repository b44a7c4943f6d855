import { z } from 'zod';
import type { Db } from '../../db/knex';
import { badRequest, conflict, notFound } from '../../errors';
import { assertReferences, deleteAnnounced, whereFiltered } from './service';
import { transactionFilterBody } from './schema';
import { emitTransactionEvents } from '../webhook-endpoints/events';
import { fieldsSetByHand, markSetByHand } from '../transaction-rules/apply';

/** At most this many transactions change in one request, all or none. */
export const BULK_LIMIT = 10_000;

const bulkChanges = z
  .object({
    categorySlug: z.string().min(1).max(100).nullable().optional().meta({ description: 'Category slug of the team; null clears it.' }),
    status: z.enum(['posted', 'completed', 'excluded', 'archived']).optional(),
    assignedId: z.uuid().nullable().optional(),
    note: z.string().max(5000).nullable().optional(),
    internal: z.boolean().optional(),
    recurring: z.boolean().optional(),
    addTags: z.array(z.uuid()).min(1).max(50).optional(),
    removeTags: z.array(z.uuid()).min(1).max(50).optional(),
  })
  .strict()
  .refine((c) => Object.keys(c).length > 0, { message: 'give at least one change' });

export const bulkUpdateBody = z
  .object({
    ids: z
      .array(z.uuid())
      .min(1)
      .max(BULK_LIMIT)
      .optional()
      .meta({ description: `Up to ${BULK_LIMIT.toLocaleString('en')} transaction ids.` }),
    filter: transactionFilterBody.optional(),
    set: bulkChanges,
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.filter === undefined), { message: 'give either `ids` or `filter`', path: ['ids'] })
  .meta({ id: 'BulkUpdateTransactions' });
export type BulkUpdateBody = z.infer<typeof bulkUpdateBody>;

export const bulkDeleteBody = z
  .object({ ids: z.array(z.uuid()).min(1).max(BULK_LIMIT) })
  .strict()
  .meta({ id: 'BulkDeleteTransactions' });

export const bulkResultSchema = z
  .object({
    matched: z.number().int().meta({ description: 'Transactions the ids or filter selected.' }),
    changed: z.number().int().meta({ description: 'Of those, how many the request changed or deleted.' }),
  })
  .meta({ id: 'BulkResult' });
export type BulkResult = z.infer<typeof bulkResultSchema>;

/** The selected ids, all of the team's (404 naming how many are not) or at most BULK_LIMIT by filter (400 beyond). */
export async function selectTransactionIds(trx: Db, teamId: string, body: Pick<BulkUpdateBody, 'ids' | 'filter'>): Promise<string[]> {
  if (body.ids) {
    const wanted = [...new Set(body.ids)];
    const found = (
      await trx('transactions').where({ teamId }).whereRaw('id = any(?::uuid[])', [wanted]).select<{ id: string }[]>('id')
    ).map((r) => r.id);
    if (found.length < wanted.length)
      throw notFound(`${wanted.length - found.length} of the ids are not transactions of your team; nothing was changed`);
    return found;
  }
  const ids = (
    await whereFiltered(trx, trx('transactions as t').where('t.team_id', teamId), body.filter ?? {})
      .limit(BULK_LIMIT + 1)
      .select<{ id: string }[]>('t.id')
  ).map((r) => r.id);
  if (ids.length > BULK_LIMIT) {
    throw badRequest('The filter selects too many transactions', [
      { field: 'filter', message: `matches more than ${BULK_LIMIT.toLocaleString('en')}; narrow it` },
    ]);
  }
  return ids;
}

/**
 * Changes many transactions at once, all or nothing: a category, a status, an assignee, a note, flags,
 * tags added or removed. Only what a user may set on any transaction (the bank owns the rest).
 */
export async function bulkUpdateTransactions(db: Db, teamId: string, body: BulkUpdateBody): Promise<BulkResult> {
  return db.transaction(async (trx) => {
    const ids = await selectTransactionIds(trx, teamId, body);
    const { addTags, removeTags, ...fields } = body.set;
    await assertReferences(trx, teamId, { ...fields, tags: [...(addTags ?? []), ...(removeTags ?? [])] });
    if (!ids.length) return { matched: 0, changed: 0 };
    let changed = new Set<string>();
    if (Object.keys(fields).length) {
      // Rows that already hold every value are left alone: the count says what really changed.
      const updated = await trx('transactions')
        .where({ teamId })
        .whereRaw('id = any(?::uuid[])', [ids])
        .where((w) => {
          for (const [column, value] of Object.entries(fields)) w.orWhereRaw('?? is distinct from ?', [column, value]);
        })
        .update({ ...fields, updatedAt: trx.fn.now() })
        .returning<{ id: string }[]>('id');
      changed = new Set(updated.map((r) => r.id));
    }
    if (addTags) {
      const { rows } = await trx.raw<{ rows: { transactionId: string }[] }>(
        `insert into transaction_tags (team_id, transaction_id, tag_id)
         select ?, t, g from unnest(?::uuid[]) t, unnest(?::uuid[]) g
         on conflict (transaction_id, tag_id) do nothing returning transaction_id as "transactionId"`,
        [teamId, ids, [...new Set(addTags)]],
      );
      for (const r of rows) changed.add(r.transactionId);
    }
    if (removeTags) {
      const removed = await trx('transaction_tags')
        .where({ teamId })
        .whereRaw('transaction_id = any(?::uuid[]) and tag_id = any(?::uuid[])', [ids, removeTags])
        .delete()
        .returning<{ transactionId: string }[]>('transactionId');
      for (const r of removed) changed.add(r.transactionId);
    }
    // Every selected row, changed or already holding the values: the user chose them, so no rule changes them.
    await markSetByHand(trx, teamId, ids, fieldsSetByHand(body.set));
    await emitTransactionEvents(trx, teamId, 'transaction.updated', [...changed]);
    return { matched: ids.length, changed: changed.size };
  });
}

/** Deletes manual transactions, all or none: a bank-synced one among them is 409 (it would come back with the next sync). */
export async function bulkDeleteTransactions(db: Db, teamId: string, ids: string[]): Promise<BulkResult> {
  return db.transaction(async (trx) => {
    const wanted = [...new Set(ids)];
    const rows = await trx('transactions')
      .where({ teamId })
      .whereRaw('id = any(?::uuid[])', [wanted])
      .forUpdate()
      .select<{ manual: boolean }[]>('manual');
    if (rows.length < wanted.length)
      throw notFound(`${wanted.length - rows.length} of the ids are not transactions of your team; nothing was deleted`);
    const synced = rows.filter((r) => !r.manual).length;
    if (synced)
      throw conflict(`${synced} of them are bank-synced and cannot be deleted (set their status to \`excluded\`); nothing was deleted`);
    const n = await deleteAnnounced(trx, teamId, wanted);
    return { matched: wanted.length, changed: n };
  });
}
