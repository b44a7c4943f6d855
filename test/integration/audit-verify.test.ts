import type { Knex } from 'knex';
import { migrateLatest } from '../../shared/db/knex';
import { migrationSource } from '../../shared/db/migrations';
import { checkpointAuditTrail, sealAuditTrail, verifyAuditTrail } from '../../shared/domain/audit-events/service';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner, insertTransactions } from '../support/fixtures';

/**
 * verify over a chain long enough for several stretches (stretches of ten entries here, walked side
 * by side as a long chain's are): a break on either side of a stretch's edge, or several breaks in
 * stretches that finish in any order, is reported as the first broken entry and why; signed
 * checkpoints are still checked; and chains sealed before migration 0102 still verify after it.
 */
const tdb = withTestDatabase();
const SEED = '3'.repeat(64);
const STRETCH = 10;

/**
 * Seals all the team's entries and returns how many its chain holds. An open transaction anywhere on
 * the server holds sealing back a moment (it seals only what ended before every open one began).
 */
async function sealAll(teamId: string): Promise<number> {
  const unsealed = () => tdb.db('audit_events').where({ teamId }).whereNull('chainPos').count<{ n: number }[]>('* as n');
  await eventually(
    async () => {
      await sealAuditTrail(tdb.db, teamId);
      return (await unsealed())[0].n === 0;
    },
    20_000,
    'every entry sealed',
  );
  const [{ n }] = await tdb.db('audit_events').where({ teamId }).whereNotNull('chainPos').count<{ n: number }[]>('* as n');
  return n;
}

/** A team whose chain holds its creation's entries and `rows` transactions', all sealed. */
async function sealedTeam(rows = 40): Promise<{ teamId: string; entries: number }> {
  const { team } = await createTeamAndOwner(tdb.db, 'Chain');
  await insertTransactions(tdb.db, team.id, rows);
  return { teamId: team.id, entries: await sealAll(team.id) };
}

/** As the tables' owner with the triggers off: what a superuser could do behind the trail's back. */
const behindTriggers = (fn: (trx: Knex.Transaction) => Promise<unknown>) =>
  tdb.db.transaction(async (trx) => {
    await trx.raw('set local session_replication_role = replica');
    await fn(trx);
  });

const entryAt = (teamId: string, chainPos: number) =>
  tdb.db('audit_events').where({ teamId, chainPos }).first<{ id: string; hash: Buffer }>('id', 'hash');

const editContent = (teamId: string, chainPos: number) =>
  behindTriggers((trx) =>
    trx('audit_events')
      .where({ teamId, chainPos })
      .update({ after: JSON.stringify({ name: 'something else' }) }),
  );

const verify = (teamId: string) => verifyAuditTrail(tdb.db, teamId, SEED, { stretch: STRETCH });

describe('audit verify across stretches', () => {
  it('walks an intact chain of several stretches, as one stretch does', async () => {
    const { teamId, entries } = await sealedTeam();
    expect(entries).toBeGreaterThan(4 * STRETCH);
    const walked = await verify(teamId);
    expect(walked).toEqual({ ok: true, entries, unsealed: 0, checkpoints: 0, brokenAt: null });
    expect(await verifyAuditTrail(tdb.db, teamId, SEED)).toEqual(walked);
  });

  it.each([
    ['the first entry', 1],
    ['the last of a stretch', 2 * STRETCH],
    ['the first of a stretch', 2 * STRETCH + 1],
    ['the middle of a stretch', 3 * STRETCH + 5],
  ])('names an entry edited at %s by its content hash', async (_, position) => {
    const { teamId, entries } = await sealedTeam();
    const victim = await entryAt(teamId, position);
    await editContent(teamId, position);
    expect(await verify(teamId)).toEqual({
      ok: false,
      entries,
      unsealed: 0,
      checkpoints: 0,
      brokenAt: { position, id: victim.id, reason: 'hash' },
    });
    expect((await verifyAuditTrail(tdb.db, teamId, SEED)).brokenAt).toEqual({ position, id: victim.id, reason: 'hash' });
  });

  it('names the earliest of several breaks, whichever stretch finishes first', async () => {
    const { teamId } = await sealedTeam();
    const first = await entryAt(teamId, 2 * STRETCH + 3);
    // Later breaks in other stretches, one in the very last entry, and one in the stretch walked first.
    await editContent(teamId, 4 * STRETCH);
    await editContent(teamId, 2 * STRETCH + 7);
    await editContent(teamId, 2 * STRETCH + 3);
    expect((await verify(teamId)).brokenAt).toEqual({ position: 2 * STRETCH + 3, id: first.id, reason: 'hash' });
  });

  it('names the entry after one whose hash was forged to match its new content, across a stretch edge', async () => {
    const { teamId } = await sealedTeam();
    const position = 2 * STRETCH; // the last of its stretch: the next one checks the link
    const after = await entryAt(teamId, position + 1);
    await behindTriggers(async (trx) => {
      await trx('audit_events')
        .where({ teamId, chainPos: position })
        .update({ after: JSON.stringify({ name: 'something else' }) });
      await trx.raw(`update audit_events e set hash = audit_entry_hash(e, e.chain_pos, e.prev_hash) where team_id = ? and chain_pos = ?`, [
        teamId,
        position,
      ]);
    });
    expect((await verify(teamId)).brokenAt).toEqual({ position: position + 1, id: after.id, reason: 'link' });
  });

  it('names the entry after a deleted one, on either side of a stretch edge', async () => {
    for (const deleted of [2 * STRETCH, 2 * STRETCH + 1]) {
      const { teamId, entries } = await sealedTeam();
      const after = await entryAt(teamId, deleted + 1);
      await behindTriggers((trx) => trx('audit_events').where({ teamId, chainPos: deleted }).delete());
      expect(await verify(teamId)).toMatchObject({
        ok: false,
        entries: entries - 1,
        brokenAt: { position: deleted + 1, id: after.id, reason: 'missing' },
      });
    }
  });

  it('checks the signed checkpoints: a forged one is named, unless the chain breaks before it', async () => {
    const { teamId, entries } = await sealedTeam();
    const day = new Date().toISOString().slice(0, 10);
    const sealed = await checkpointAuditTrail(tdb.db, teamId, day, SEED);
    expect(sealed).toMatchObject({ day, position: entries });
    expect(await verify(teamId)).toMatchObject({ ok: true, checkpoints: 1 });

    const last = await entryAt(teamId, entries);
    await behindTriggers((trx) =>
      trx('audit_checkpoints')
        .where({ teamId, day })
        .update({ signature: Buffer.alloc(64) }),
    );
    expect((await verify(teamId)).brokenAt).toEqual({ position: entries, id: last.id, reason: 'checkpoint' });

    const earlier = await entryAt(teamId, STRETCH + 2);
    await editContent(teamId, STRETCH + 2);
    expect((await verify(teamId)).brokenAt).toEqual({ position: STRETCH + 2, id: earlier.id, reason: 'hash' });
  });
});

describe('migration 0102 (one SQL definition of an entry’s hash)', () => {
  it('is inlined into the statements that use it, rather than called per entry', async () => {
    const { rows } = await tdb.db.raw<{ rows: { 'QUERY PLAN': string }[] }>(
      `explain verbose select audit_entry_hash(e, e.chain_pos, e.prev_hash) from audit_events e`,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('sha256(');
    expect(plan).not.toMatch(/audit_entry_(hash|bytes)\(/);
  });

  it('keeps the hashes sealed before it: such a chain, and one sealed on both sides of it, verify', async () => {
    await tdb.db.migrate.down({ migrationSource, name: '0102_audit_entry_hash' });
    let before: Awaited<ReturnType<typeof sealedTeam>>;
    try {
      before = await sealedTeam(15);
    } finally {
      expect(await migrateLatest(tdb.db)).toEqual(['0102_audit_entry_hash']);
    }
    expect(await verify(before.teamId)).toMatchObject({ ok: true, entries: before.entries });
    await insertTransactions(tdb.db, before.teamId, 15, '2026-05-01', { providerTransactionId: null });
    const entries = await sealAll(before.teamId);
    expect(entries).toBeGreaterThanOrEqual(before.entries + 15);
    expect(await verify(before.teamId)).toEqual({ ok: true, entries, unsealed: 0, checkpoints: 0, brokenAt: null });
  });
});
