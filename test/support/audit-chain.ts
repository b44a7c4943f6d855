import type { Knex } from 'knex';
import type { FileDatabase } from './database';
import { eventually } from './eventually';
import { createTeamAndOwner, insertTransactions } from './fixtures';
import { sealAuditTrail } from '../../shared/domain/audit-events/service';

/** Builds teams with sealed audit chains in a test file's database, and breaks them as a superuser could. */
export function auditChains(tdb: FileDatabase) {
  /**
   * Seals all the team's entries and returns how many its chain holds. An open transaction anywhere
   * on the server holds sealing back a moment (it seals only what ended before every open one began).
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
    tdb.db('audit_events').where({ teamId, chainPos }).first<{ id: string; hash: Buffer; hashFormat: number }>('id', 'hash', 'hashFormat');

  const editContent = (teamId: string, chainPos: number) =>
    behindTriggers((trx) =>
      trx('audit_events')
        .where({ teamId, chainPos })
        .update({ after: JSON.stringify({ name: 'something else' }) }),
    );

  return { sealAll, sealedTeam, behindTriggers, entryAt, editContent };
}
