import { applyConnectionEvent, type WebhookEffectDeps } from '../../shared/domain/bank-connections/webhook-effects';
import { claimWebhookEvent, recordWebhookFailure, recordWebhookOutcome } from '../../shared/domain/webhook-events/record';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

const tdb = withTestDatabase();

const claimed = async (n: number, prefix: string) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = await claimWebhookEvent(tdb.db, {
      provider: 'bank-b',
      eventKey: `${prefix}-${i}`,
      eventType: 'webhook.test',
      payload: { i },
    });
    ids.push(id!);
  }
  return ids;
};

/** Counts the statements of `kind` run on webhook_events meanwhile (this test's own database), whatever rows each touches. */
async function countingStatements<T>(kind: 'insert' | 'update', during: () => Promise<T>): Promise<{ result: T; statements: number }> {
  await tdb.db.raw(`create table counted_statements (n int);
    create function count_statement() returns trigger language plpgsql as $$
      begin insert into counted_statements values (1); return null; end $$;
    create trigger count_statements after ${kind} on webhook_events for each statement execute function count_statement()`);
  try {
    const result = await during();
    const [{ n }] = await tdb.db('counted_statements').count<{ n: string }[]>({ n: '*' });
    return { result, statements: Number(n) };
  } finally {
    await tdb.db.raw('drop trigger count_statements on webhook_events; drop function count_statement; drop table counted_statements');
  }
}

describe('webhook claims written in groups', () => {
  it('claims each new key once however often it arrives, reclaims a failed event once, and ignores a finished one, in fewer statements than deliveries', async () => {
    const [done] = await claimed(1, 'claims-done');
    await recordWebhookOutcome(tdb.db, done, { outcome: 'processed' });
    const [failed] = await claimed(1, 'claims-failed');
    await recordWebhookFailure(tdb.db, failed, new Error('provider timed out'));

    const fresh = Array.from({ length: 30 }, (_, i) => `claims-new-${i}`);
    // A new key three times, the finished and the failed events twice each, all at once.
    const keys = [...fresh, fresh[7], fresh[7], 'claims-done-0', 'claims-done-0', 'claims-failed-0', 'claims-failed-0'];
    const { result: ids, statements } = await countingStatements('insert', () =>
      Promise.all(
        keys.map((eventKey) =>
          claimWebhookEvent(tdb.db, { provider: 'bank-b', eventKey, eventType: 'webhook.test', payload: { eventKey } }),
        ),
      ),
    );
    expect(statements).toBeLessThanOrEqual(3);

    const claimsOf = (key: string) => ids.filter((id, i) => keys[i] === key && id !== null);
    const rows = await tdb.db('webhook_events').whereIn('eventKey', fresh).select('id', 'eventKey', 'payload');
    expect(rows).toHaveLength(30);
    for (const row of rows as { id: string; eventKey: string; payload: unknown }[]) {
      expect(claimsOf(row.eventKey)).toEqual([row.id]);
      expect(row.payload).toEqual({ eventKey: row.eventKey });
    }
    expect(claimsOf('claims-done-0')).toEqual([]);
    expect(claimsOf('claims-failed-0')).toEqual([failed]);
    expect(await tdb.db('webhook_events').where({ id: failed }).first('outcome', 'error')).toEqual({ outcome: 'received', error: null });
  });
});

describe('bank connections looked up in groups', () => {
  it('gives each delivery its own connection, of whichever team, or none', async () => {
    const a = await createTeamAndOwner(tdb.db, 'A');
    const b = await createTeamAndOwner(tdb.db, 'B');
    await tdb.db('bank_connections').insert([
      { teamId: a.team.id, provider: 'bank-b', referenceId: 'enr_a' },
      { teamId: b.team.id, provider: 'bank-b', referenceId: 'enr_b' },
      { teamId: b.team.id, provider: 'bank-a', referenceId: 'enr_a' },
    ]);
    const deps = { db: tdb.db } as WebhookEffectDeps; // an 'other' event needs nothing else
    const refs = [
      { provider: 'bank-b', referenceId: 'enr_a' },
      { provider: 'bank-b', referenceId: 'enr_b' },
      { provider: 'bank-a', referenceId: 'enr_a' },
      { provider: 'bank-a', referenceId: 'enr_b' },
      { provider: 'bank-b', referenceId: 'enr_a' },
    ] as const;
    const outcomes = await Promise.all(refs.map((ref) => applyConnectionEvent(deps, ref, { kind: 'other' })));
    expect(outcomes).toEqual([
      { outcome: 'ignored', teamId: a.team.id },
      { outcome: 'ignored', teamId: b.team.id },
      { outcome: 'ignored', teamId: b.team.id },
      { outcome: 'ignored' },
      { outcome: 'ignored', teamId: a.team.id },
    ]);
  });
});

describe('webhook outcomes written in groups', () => {
  it('writes outcomes that arrive together in fewer statements than events, each row its own outcome', async () => {
    const { team } = await createTeamAndOwner(tdb.db);
    const ids = await claimed(60, 'together');
    const { statements } = await countingStatements('update', () =>
      Promise.all(
        ids.map((id, i) => recordWebhookOutcome(tdb.db, id, i % 2 ? { outcome: 'processed', teamId: team.id } : { outcome: 'ignored' })),
      ),
    );
    // The first goes alone, the 59 that came while it was on its way go together.
    expect(statements).toBeLessThanOrEqual(3);
    const rows = await tdb.db('webhook_events').whereIn('id', ids).select('id', 'outcome', 'teamId', 'processedAt');
    const byId = new Map(rows.map((r: { id: string }) => [r.id, r]));
    ids.forEach((id, i) =>
      expect(byId.get(id)).toMatchObject(i % 2 ? { outcome: 'processed', teamId: team.id } : { outcome: 'ignored', teamId: null }),
    );
    expect(rows.every((r: { processedAt: Date | null }) => r.processedAt !== null)).toBe(true);
  });

  it('fails only the outcome that cannot be written (a team that no longer exists); the rest of its group is recorded', async () => {
    const ids = await claimed(10, 'one-bad');
    const gone = '00000000-0000-4000-8000-000000000000';
    const results = await Promise.allSettled(
      ids.map((id, i) => recordWebhookOutcome(tdb.db, id, i === 5 ? { outcome: 'processed', teamId: gone } : { outcome: 'ignored' })),
    );
    expect(results.map((r) => r.status)).toEqual(ids.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    const outcomes = await tdb.db('webhook_events').whereIn('id', ids).orderBy('eventKey').pluck('outcome');
    expect(outcomes.filter((o) => o === 'ignored')).toHaveLength(9);
    expect(await tdb.db('webhook_events').where({ id: ids[5] }).first('outcome')).toEqual({ outcome: 'received' });
  });
});
