import type { Db } from '../../db/knex';
import { Category, Tag, Transaction, type StoredSplitPart } from '../../db/models';
import { badRequest, notFound, type FieldProblem } from '../../errors';
import { emitTransactionEvents } from '../webhook-endpoints/events';
import { markSetByHand } from '../transaction-rules/apply';
import { getTransactionDetail } from './merge';
import { splitProblems } from './split-amounts';
import type { SplitPartBody, TransactionDetailDto } from './schema';

/**
 * `PUT /transactions/{id}/splits`: the transaction's parts replaced by these, which must sum exactly
 * to its amount and name only the team's categories and tags; otherwise a 400 naming each part, and
 * nothing written. The split counts as set by hand: no rule replaces or removes it. The totals
 * reports read move to the parts by the triggers of migration 0098.
 */
export async function setSplits(db: Db, teamId: string, id: string, parts: readonly SplitPartBody[]): Promise<TransactionDetailDto> {
  await db.transaction(async (trx) => {
    const row = await Transaction.query(trx).findOne({ teamId, id }).forUpdate().select('amount', 'currency');
    if (!row) throw notFound(`Transaction ${id} not found`);
    const problems: FieldProblem[] = splitProblems(
      row.amount,
      row.currency.trim(),
      parts.map((p) => p.amount),
    ).map((p) => ({
      field: p.index === null ? 'parts' : `parts.${p.index}.amount`,
      message: p.message,
    }));
    problems.push(...(await referenceProblems(trx, teamId, parts)));
    if (problems.length) throw badRequest(`Invalid split: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, problems);
    const stored: StoredSplitPart[] = parts.map((p) => ({
      amount: p.amount,
      categorySlug: p.categorySlug ?? null,
      tags: [...new Set(p.tags ?? [])],
      note: p.note ?? null,
    }));
    await trx('transactions')
      .where({ teamId, id })
      .update({ splits: JSON.stringify(stored), updatedAt: new Date() });
    await markSetByHand(trx, teamId, [id], ['splits']);
    await emitTransactionEvents(trx, teamId, 'transaction.updated', [id]);
  });
  return getTransactionDetail(db, teamId, id);
}

/**
 * `DELETE /transactions/{id}/splits`: the transaction counts whole again, in its own category. An
 * unsplit is the user's choice too, so no rule splits it again.
 */
export async function removeSplits(db: Db, teamId: string, id: string): Promise<TransactionDetailDto> {
  await db.transaction(async (trx) => {
    const row = await Transaction.query(trx).findOne({ teamId, id }).forUpdate().select('id', 'splits');
    if (!row) throw notFound(`Transaction ${id} not found`);
    if (row.splits !== null) await trx('transactions').where({ teamId, id }).update({ splits: null, updatedAt: new Date() });
    await markSetByHand(trx, teamId, [id], ['splits']);
    if (row.splits !== null) await emitTransactionEvents(trx, teamId, 'transaction.updated', [id]);
  });
  return getTransactionDetail(db, teamId, id);
}

/** Each part's category and tags that are not the team's, one query for each kind. */
export async function referenceProblems(
  db: Db,
  teamId: string,
  parts: readonly { categorySlug?: string | null; tags?: readonly string[] }[],
  prefix = 'parts',
): Promise<FieldProblem[]> {
  const slugs = [...new Set(parts.flatMap((p) => (p.categorySlug ? [p.categorySlug] : [])))];
  const tagIds = [...new Set(parts.flatMap((p) => p.tags ?? []))];
  const [categories, tags] = await Promise.all([
    slugs.length ? Category.query(db).where({ teamId }).whereIn('slug', slugs).select('slug') : [],
    tagIds.length ? Tag.query(db).where({ teamId }).whereIn('id', tagIds).select('id') : [],
  ]);
  const knownSlugs = new Set(categories.map((c) => c.slug));
  const knownTags = new Set(tags.map((t) => t.id));
  return parts.flatMap((p, i) => {
    const problems: FieldProblem[] = [];
    if (p.categorySlug && !knownSlugs.has(p.categorySlug))
      problems.push({ field: `${prefix}.${i}.categorySlug`, message: 'no such category in your team' });
    const missing = (p.tags ?? []).filter((t) => !knownTags.has(t));
    if (missing.length) problems.push({ field: `${prefix}.${i}.tags`, message: `no such tags in your team: ${missing.join(', ')}` });
    return problems;
  });
}
