import { ROWS_AS_SELECTED, type Db } from '../../db/knex';
import { toIso } from '../../db/timestamps';
import { TransactionRuleRun } from '../../db/models';
import type { ApplyRulesChunk, ApplyRulesKey } from '../../temporal/apply-rules/contract';
import { whereFiltered } from '../transactions/service';
import type { TransactionFilter } from '../transactions/schema';
import { emitTransactionEvents } from '../webhook-endpoints/events';
import { applyRulesId } from '../../temporal/apply-rules/contract';
import { compileRules, linksRead, matchesAny, type MatchRow } from './engine';
import { evaluateRows, loadReferences, loadRules, matchRowColumns, ruleRowsById, writeChanges } from './apply';
import type { RuleRunDto } from './schema';

/** Transactions one batch reads, changes and commits with the run's position. */
export const APPLY_BATCH = 5000;

export const runToDto = (r: TransactionRuleRun): RuleRunDto => ({
  id: r.id,
  ruleId: r.ruleId,
  dryRun: r.dryRun,
  status: r.status,
  scanned: r.scanned,
  matched: r.matched,
  changed: r.changed,
  error: r.error,
  workflowId: applyRulesId(r.id),
  createdAt: toIso(r.createdAt),
  completedAt: r.completedAt ? toIso(r.completedAt) : null,
});

/** The run as its workflow reads it; undefined once it is gone (its rule or team deleted). */
export async function ruleRunFor(db: Db, teamId: string, runId: string): Promise<RuleRunDto | undefined> {
  const row = await TransactionRuleRun.query(db).findOne({ teamId, id: runId });
  return row && runToDto(row);
}

export async function markRuleRun(db: Db, teamId: string, runId: string, status: 'running' | 'completed' | 'failed', error?: string) {
  await TransactionRuleRun.query(db)
    .where({ teamId, id: runId })
    .whereNot('status', 'completed')
    .patch({ status, error: error ?? null, updatedAt: new Date(), completedAt: status === 'running' ? null : new Date() });
}

/**
 * Returns the run's counters so far (every attempt's committed batches), not this call's alone.
 *
 * Applies the run's rule to the next transactions in (date, id) order, batch by batch, until about
 * `maxRows` were read or none is left. Each batch is one database transaction that reads the run's
 * position (locking its row), reads the next rows (only what the conditions test), reads whole those
 * the rule matches, locks those it changes and writes the changes
 * with their `transaction.updated` events, and moves the position and the counters on: a batch is applied and
 * counted exactly when it commits, so a worker lost mid-run resumes after the last committed batch,
 * and an attempt still running beside its retry waits on the run's row and then starts where the
 * other stopped. Runs of one team take turns batch by batch (a transaction-level advisory lock), so
 * two runs never wait on each other's rows in opposite orders. A dry run writes only its counters.
 * Applying is idempotent anyway: a row the rule already set is not counted as changed again.
 */
export async function applyRunChunk(
  db: Db,
  teamId: string,
  runId: string,
  opts: { maxRows: number; afterBatch?: (last: ApplyRulesKey | null) => void },
): Promise<ApplyRulesChunk> {
  const run = await TransactionRuleRun.query(db).findOne({ teamId, id: runId });
  const gone: ApplyRulesChunk = {
    scanned: run?.scanned ?? 0,
    matched: run?.matched ?? 0,
    changed: run?.changed ?? 0,
    last: null,
    done: true,
  };
  if (!run) return gone;
  const rules = await loadRules(db, teamId, run.ruleId);
  if (!rules.length) return gone;
  // Each rule runs on its own here, whatever its `enabled`: the user asked for this one.
  const compiled = compileRules(rules);
  const refs = await loadReferences(db, teamId);
  const links = linksRead(compiled);
  const matchColumns = matchRowColumns(links.attachments);
  const filter = run.filter as TransactionFilter;
  let total: ApplyRulesChunk = { scanned: run.scanned, matched: run.matched, changed: run.changed, last: null, done: false };
  let read = 0;
  while (read < opts.maxRows) {
    const batch = await db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`apply-rules:${teamId}`]);
      const at = await TransactionRuleRun.query(trx).findOne({ teamId, id: runId }).forUpdate();
      if (!at || at.status === 'completed') return null;
      const q = trx('transactions as t').where('t.team_id', teamId);
      whereFiltered(trx, q, filter);
      if (at.lastDate && at.lastId) q.whereRaw('(t.date, t.id) > (?::date, ?::uuid)', [at.lastDate, at.lastId]);
      q.orderBy([{ column: 't.date' }, { column: 't.id' }])
        .limit(APPLY_BATCH)
        .select(trx.raw(matchColumns))
        .queryContext(ROWS_AS_SELECTED);
      const rows = (await q) as MatchRow[];
      const matched = rows.filter((r) => matchesAny(compiled, r)).map((r) => r.id);
      // Only the rows the rule matches are read whole (tags, hand-set fields) to decide on their change.
      const whole = matched.length ? await ruleRowsById(trx, teamId, matched, { lock: false, links }) : [];
      let { changes } = evaluateRows(compiled, whole, refs);
      if (!run.dryRun && changes.length) {
        // Only the rows the rule changes are locked, and decided on again as they are once locked
        // (a person's edit in between wins): locking every row read wrote a row lock into each one.
        const locked = await ruleRowsById(
          trx,
          teamId,
          changes.map((c) => c.id),
          { lock: true, links },
        );
        changes = evaluateRows(compiled, locked, refs).changes;
        await writeChanges(trx, teamId, changes);
        await emitTransactionEvents(
          trx,
          teamId,
          'transaction.updated',
          changes.map((c) => c.id),
        );
      }
      const last = rows.at(-1);
      const counts = { scanned: at.scanned + rows.length, matched: at.matched + matched.length, changed: at.changed + changes.length };
      await TransactionRuleRun.query(trx)
        .where({ teamId, id: runId })
        .patch({ ...counts, ...(last && { lastDate: last.date, lastId: last.id }), updatedAt: new Date() });
      return {
        ...counts,
        read: rows.length,
        last: last ? { date: last.date, id: last.id } : at.lastDate && at.lastId ? { date: at.lastDate, id: at.lastId } : null,
      };
    });
    if (!batch) return { ...total, done: true };
    read += batch.read;
    total = { scanned: batch.scanned, matched: batch.matched, changed: batch.changed, last: batch.last, done: batch.read < APPLY_BATCH };
    opts.afterBatch?.(total.last);
    if (total.done) return total;
  }
  return total;
}
