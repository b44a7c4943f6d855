import { claimWebhookEvent, recordWebhookOutcome } from '../../shared/domain/webhook-events/record';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

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

describe('webhook outcomes written in groups', () => {
  it('writes outcomes that arrive together in fewer statements than events, each row its own outcome', async () => {
    const { team } = await createTeamAndOwner(tdb.db);
    const ids = await claimed(60, 'together');
    // Counts update statements on the table (this test's own database), whatever rows each touches.
    await tdb.db.raw(`create table outcome_statements (n int);
      create function count_outcome_statement() returns trigger language plpgsql as $$
        begin insert into outcome_statements values (1); return null; end $$;
      create trigger count_outcome_statements after update on webhook_events for each statement execute function count_outcome_statement()`);
    await Promise.all(
      ids.map((id, i) => recordWebhookOutcome(tdb.db, id, i % 2 ? { outcome: 'processed', teamId: team.id } : { outcome: 'ignored' })),
    );
    await tdb.db.raw('drop trigger count_outcome_statements on webhook_events');
    // The first goes alone, the 59 that came while it was on its way go together.
    expect(Number((await tdb.db('outcome_statements').count<{ n: string }[]>({ n: '*' }))[0].n)).toBeLessThanOrEqual(3);
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
