import { runPrepared } from '../../shared/db/prepared';
import { listTransactionsQuery } from '../../shared/domain/transactions/schema';
import { listTransactions } from '../../shared/domain/transactions/service';
import { acrossTeams, withinTeam } from '../../shared/db/team-wall';
import { withTestDatabase } from '../support/database';
import { startTestApi } from '../support/api';
import { createTeamAndOwner, insertApiKey, insertTransactions } from '../support/fixtures';

/**
 * The second wall (shared/db/team-wall.ts, migration 0054): inside a team's scope, PostgreSQL itself
 * hides and refuses other teams' rows, so a query that forgot its `where team_id` cannot leak.
 */
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
let other: Awaited<ReturnType<typeof createTeamAndOwner>>;

const tdb = withTestDatabase({
  setUp: async () => {
    acme = await createTeamAndOwner(tdb.db, 'Acme');
    other = await createTeamAndOwner(tdb.db, 'Other');
    await insertTransactions(tdb.db, acme.team.id, 3);
    await insertTransactions(tdb.db, other.team.id, 5);
  },
});

const teamsOf = (rows: { teamId: string }[]) => [...new Set(rows.map((r) => r.teamId))];

describe('the team wall', () => {
  it('covers every table that has a team_id, and teams themselves', async () => {
    const { rows } = await tdb.db.raw<{ rows: { table_name: string; walled: boolean }[] }>(`
      select c.relname as table_name, c.relrowsecurity and exists (
               select 1 from pg_policies p where p.tablename = c.relname and p.policyname = 'team_wall') as walled
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind = 'r'
         and (c.relname = 'teams' or exists (
               select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'team_id' and not a.attisdropped))`);
    expect(rows.length).toBeGreaterThan(15);
    expect(rows.filter((r) => !r.walled).map((r) => r.table_name)).toEqual([]);
  });

  it('answers an unscoped query with the scope’s own rows only', async () => {
    const mine = await withinTeam(acme.team.id, () => tdb.db('transactions').select('teamId'));
    expect(mine).toHaveLength(3);
    expect(teamsOf(mine)).toEqual([acme.team.id]);
    const theirs = await withinTeam(other.team.id, () => tdb.db('transactions').select('teamId'));
    expect(teamsOf(theirs)).toEqual([other.team.id]);
    expect(await withinTeam(acme.team.id, () => tdb.db('teams').pluck('id'))).toEqual([acme.team.id]);
    // Outside any scope (workers, webhooks, this test's fixtures) nothing is hidden.
    expect(await tdb.db('transactions').count({ n: '*' }).first()).toEqual({ n: 8 });
    expect(await acrossTeams(() => tdb.db('transactions').count({ n: '*' }).first())).toEqual({ n: 8 });
  });

  it('holds inside a transaction, and changes nothing of another team', async () => {
    const changed = await withinTeam(acme.team.id, () =>
      tdb.db.transaction(async (trx) => {
        await trx('transactions').select('id'); // the scope is set when the transaction takes its connection
        return trx('transactions').update({ note: 'touched' });
      }),
    );
    expect(changed).toBe(3);
    const deleted = await withinTeam(acme.team.id, () => tdb.db('transactions').where({ teamId: other.team.id }).delete());
    expect(deleted).toBe(0);
    await expect(
      withinTeam(acme.team.id, () =>
        tdb.db('transactions').insert({ teamId: other.team.id, date: '2026-01-01', name: 'x', amount: 1, currency: 'EUR' }),
      ),
    ).rejects.toThrow(/row-level security/);
    const notes = await tdb.db('transactions').where({ teamId: other.team.id }).whereNotNull('note').count({ n: '*' }).first();
    expect(notes).toEqual({ n: 0 });
    expect(await tdb.db('transactions').where({ teamId: other.team.id }).count({ n: '*' }).first()).toEqual({ n: 5 });
  });

  it('holds for prepared statements run past the query builder (shared/db/prepared.ts)', async () => {
    const statement = { name: 'test.transactions.team_ids', text: 'select team_id as "teamId" from transactions where amount > $1' };
    const mine = await withinTeam(acme.team.id, () => runPrepared<{ teamId: string }>(tdb.db, statement, [-1e9]));
    expect(mine).toHaveLength(3);
    expect(teamsOf(mine)).toEqual([acme.team.id]);
    // The same statement, already prepared on a pooled connection, answers the next scope for its team.
    const theirs = await withinTeam(other.team.id, () => runPrepared<{ teamId: string }>(tdb.db, statement, [-1e9]));
    expect(theirs).toHaveLength(5);
    expect(teamsOf(theirs)).toEqual([other.team.id]);
    expect(await runPrepared(tdb.db, statement, [-1e9])).toHaveLength(8);
  });

  it('lets the transaction list run outside the wall (its range estimates), still naming the team', async () => {
    const db = tdb.db;
    const queries: { sql: string; bindings: unknown[]; connection: unknown }[] = [];
    const listen = (q: { sql: string; bindings?: unknown[]; __knexUid: unknown }) =>
      queries.push({ sql: q.sql, bindings: q.bindings ?? [], connection: q.__knexUid });
    db.on('query', listen);
    try {
      const page = await withinTeam(acme.team.id, async () => {
        await db('transactions').select('id').first(); // a request's connection, switched into the wall
        return listTransactions(db, acme.team.id, listTransactionsQuery.parse({ amountMin: '-100000', amountMax: '100000' }));
      });
      expect(page.data).toHaveLength(3);
    } finally {
      db.removeListener('query', listen);
    }
    const listed = queries.find((q) => /from "?transactions"? as "?t"?/.test(q.sql))!;
    const lastSwitch = queries.filter((q) => q.connection === listed.connection && q.sql.includes("set_config('role'")).at(-1);
    expect(lastSwitch?.bindings[0]).toBe('none');
    expect(listed.sql).toMatch(/"?t"?\."?team_id"? = \$1/);
    expect(listed.bindings[0]).toBe(acme.team.id);
  });

  it('switches a pooled connection back and forth between scopes', async () => {
    for (let i = 0; i < 20; i++) {
      const team = i % 2 ? acme.team.id : other.team.id;
      const rows = await withinTeam(team, () => tdb.db('transactions').select('teamId'));
      expect(teamsOf(rows)).toEqual([team]);
      expect(await tdb.db('transactions').count({ n: '*' }).first()).toEqual({ n: 8 });
    }
  });

  it('costs a steady stream of one team’s requests no switching: each connection is switched once', async () => {
    const api = await startTestApi(tdb.db);
    try {
      const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['transactions.read']);
      let switches = 0;
      const count = (q: { sql: string }) => {
        if (q.sql.includes("set_config('role'")) switches++;
      };
      tdb.db.client.on('query', count);
      for (let i = 0; i < 30; i++) {
        const res = await api.fetch('/transactions', { token: key });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(3);
      }
      tdb.db.client.off('query', count);
      // The rate-limit counters and the cached credential take connections as they are.
      expect(switches).toBeLessThanOrEqual(5); // the pool's size
    } finally {
      await api.stop();
    }
  });
});
