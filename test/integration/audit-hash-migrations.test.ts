import { migrateLatest } from '../../shared/db/knex';
import { migrationSource } from '../../shared/db/migrations';
import { verifyAuditTrail } from '../../shared/domain/audit-events/service';
import { auditChains } from '../support/audit-chain';
import { withTestDatabase } from '../support/database';
import { insertTransactions } from '../support/fixtures';

/**
 * An entry's hash has had three definitions: 0088's, the same bytes through one inlinable function
 * (0102), and 0105's cheaper format 2 for new entries. A chain sealed under any of them, and extended
 * under the next, still verifies, and a change to an entry of either format is named.
 */
const tdb = withTestDatabase();
const SEED = '3'.repeat(64);
const { sealAll, sealedTeam, behindTriggers, entryAt, editContent } = auditChains(tdb);

const verify = (teamId: string) => verifyAuditTrail(tdb.db, teamId, SEED, { stretch: 10 });
const formats = async (teamId: string) =>
  (
    await tdb
      .db('audit_events')
      .where({ teamId })
      .whereNotNull('chainPos')
      .orderBy('chainPos')
      .select<{ hashFormat: number }[]>('hashFormat')
  ).map((r) => r.hashFormat);
const extend = async (teamId: string, start: string) => {
  await insertTransactions(tdb.db, teamId, 15, start, { providerTransactionId: null });
  return sealAll(teamId);
};

describe('an audit entry’s hash across migrations 0102 and 0105', () => {
  it('is inlined into the statements that use it, rather than called per entry', async () => {
    const { rows } = await tdb.db.raw<{ rows: { 'QUERY PLAN': string }[] }>(
      `explain verbose select audit_entry_hash(e, e.chain_pos, e.prev_hash) from audit_events e`,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('sha256(');
    expect(plan).not.toMatch(/audit_entry_(hash|bytes)\(/);
  });

  it('keeps the hashes sealed before each: chains sealed under 0088, 0102 and 0105 verify, and so do their extensions', async () => {
    // This file's database has no entry of format 2 sealed yet, so 0105 can be undone.
    await tdb.db.migrate.down({ migrationSource, name: '0105_audit_entry_format' });
    await tdb.db.migrate.down({ migrationSource, name: '0102_audit_entry_hash' });
    let first: Awaited<ReturnType<typeof sealedTeam>>;
    let second: Awaited<ReturnType<typeof sealedTeam>>;
    try {
      first = await sealedTeam(15);
      await tdb.db.migrate.up({ migrationSource, name: '0102_audit_entry_hash' });
      await extend(first.teamId, '2026-05-01');
      second = await sealedTeam(15);
    } finally {
      await migrateLatest(tdb.db);
    }
    // Back at the latest schema: every migration there is applied again, whichever came after 0105.
    const all = (await migrationSource.getMigrations([])).map((m) => migrationSource.getMigrationName(m));
    expect(await tdb.db('knex_migrations').orderBy('name').pluck('name')).toEqual([...all].sort());
    for (const team of [first, second]) {
      expect(await formats(team.teamId)).not.toContain(2);
      expect(await verify(team.teamId)).toMatchObject({ ok: true });
      const entries = await extend(team.teamId, '2026-04-01');
      const sealed = await formats(team.teamId);
      expect(sealed.filter((f) => f === 2)).toHaveLength(15);
      expect(sealed.slice(-15)).toEqual(Array(15).fill(2));
      expect(await verify(team.teamId)).toEqual({ ok: true, entries, unsealed: 0, checkpoints: 0, brokenAt: null });
    }

    // A change to an entry of either format is named; and 0105 cannot now be undone.
    const old = await entryAt(first.teamId, 3);
    expect(old.hashFormat).toBe(1);
    await editContent(first.teamId, 3);
    expect((await verify(first.teamId)).brokenAt).toEqual({ position: 3, id: old.id, reason: 'hash' });
    const last = await entryAt(second.teamId, await formats(second.teamId).then((f) => f.length));
    expect(last.hashFormat).toBe(2);
    await editContent(second.teamId, (await formats(second.teamId)).length);
    expect((await verify(second.teamId)).brokenAt).toMatchObject({ id: last.id, reason: 'hash' });
    await expect(tdb.db.migrate.down({ migrationSource, name: '0105_audit_entry_format' })).rejects.toThrow(
      /cannot be undone: \d+ sealed audit entries are hashed in format 2/,
    );
  });

  it('names a format 2 entry whose format was changed, and one of an unknown format', async () => {
    const { teamId } = await sealedTeam(10);
    for (const [position, format] of [
      [7, 1],
      [4, 3],
    ]) {
      const victim = await entryAt(teamId, position);
      expect(victim.hashFormat).toBe(2);
      await behindTriggers((trx) => trx('audit_events').where({ teamId, chainPos: position }).update({ hashFormat: format }));
      expect((await verify(teamId)).brokenAt).toEqual({ position, id: victim.id, reason: 'hash' });
    }
  });

  it('hashes text as its UTF-8 bytes, whatever the session’s client encoding', async () => {
    const { teamId } = await sealedTeam(0);
    await insertTransactions(tdb.db, teamId, 3, '2026-06-30', { name: 'Müller Straße ÄÖÜ €' });
    const entries = await sealAll(teamId);
    const mismatches = await tdb.db.transaction(async (trx) => {
      await trx.raw(`set local client_encoding = 'LATIN9'`);
      const { rows } = await trx.raw<{ rows: { n: number }[] }>(
        `select count(*)::int as n from audit_events e
          where e.team_id = ? and e.hash is distinct from audit_entry_hash(e, e.chain_pos, e.prev_hash)`,
        [teamId],
      );
      return rows[0].n;
    });
    expect(mismatches).toBe(0);
    expect(await verify(teamId)).toEqual({ ok: true, entries, unsealed: 0, checkpoints: 0, brokenAt: null });
  });
});
