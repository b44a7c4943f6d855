import { checkpointAuditTrail, verifyAuditTrail } from '../../shared/domain/audit-events/service';
import { auditChains } from '../support/audit-chain';
import { withTestDatabase } from '../support/database';

/**
 * verify over a chain long enough for several stretches (stretches of ten entries here, walked side
 * by side as a long chain's are): a break on either side of a stretch's edge, or several breaks in
 * stretches that finish in any order, is reported as the first broken entry and why; and signed
 * checkpoints are still checked. (Chains sealed under earlier definitions of the hash:
 * audit-hash-migrations.test.ts.)
 */
const tdb = withTestDatabase();
const SEED = '3'.repeat(64);
const STRETCH = 10;
const { sealedTeam, behindTriggers, entryAt, editContent } = auditChains(tdb);

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
