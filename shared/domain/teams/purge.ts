import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import type { TeamTablePlan } from '../../temporal/team-deletion/contract';

// The team row's own references (who asked for the deletion, a user's current team) are not the team's data.
const NOT_TEAM_DATA = new Set(['users']);

/**
 * Every table holding rows of a team (a `team_id` referencing teams), read from the catalog so a
 * table added later is deleted too, ordered so that a table comes before the tables it references:
 * each batch then deletes rows nothing of the team still points at.
 */
export async function teamTablesInDeletionOrder(db: Db): Promise<string[]> {
  const { rows: owned } = await db.raw<{ rows: { table: string }[] }>(`
    select distinct c.conrelid::regclass::text as table
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
    where c.contype = 'f' and c.confrelid = 'teams'::regclass and a.attname = 'team_id' and array_length(c.conkey, 1) = 1`);
  const tables = owned.map((r) => r.table).filter((t) => !NOT_TEAM_DATA.has(t));
  const { rows: edges } = await db.raw<{ rows: { child: string; parent: string }[] }>(
    `select conrelid::regclass::text as child, confrelid::regclass::text as parent
     from pg_constraint where contype = 'f' and conrelid <> confrelid
       and conrelid::regclass::text = any(?) and confrelid::regclass::text = any(?)`,
    [tables, tables],
  );
  // Depth-first: a table is placed once every table referencing it is placed.
  const referencedBy = new Map(tables.map((t) => [t, edges.filter((e) => e.parent === t).map((e) => e.child)]));
  const order: string[] = [];
  const visiting = new Set<string>();
  const place = (t: string) => {
    if (order.includes(t) || visiting.has(t)) return; // a cycle: its rows go with the team row's cascade
    visiting.add(t);
    for (const child of referencedBy.get(t) ?? []) place(child);
    order.push(t);
  };
  [...tables].sort().forEach(place);
  return order;
}

/** How many rows of the team each table holds, in deletion order. */
export async function planTeamPurge(db: Db, teamId: string): Promise<TeamTablePlan[]> {
  const plan: TeamTablePlan[] = [];
  for (const table of await teamTablesInDeletionOrder(db)) {
    const [{ n }] = await db(table).where({ teamId }).count<{ n: number }[]>('* as n');
    plan.push({ table, total: n });
  }
  return plan;
}

/**
 * Deletes up to `batchSize` rows of the team from one table: one short statement, so a big team
 * never holds long locks, and a repeat after a crash just deletes the next rows. Returns how many went.
 */
export async function deleteTeamBatch(db: Db, teamId: string, table: string, batchSize: number): Promise<number> {
  const { rowCount } = await db.raw<{ rowCount: number }>(
    'delete from ?? where ctid = any(array(select ctid from ?? where team_id = ? limit ?))',
    [table, table, teamId, batchSize],
  );
  return rowCount;
}

/** The team row itself, last: anything written meanwhile (a late webhook) goes with it by cascade. */
export async function deleteTeamRow(db: Db, teamId: string): Promise<void> {
  await Team.query(db).deleteById(teamId);
}
