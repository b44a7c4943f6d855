import type { Knex } from 'knex';

/**
 * Row-level security on every team-owned table (every table with a `team_id`, and `teams` by its id)
 * for the `finops_app` role that API requests acting in a team switch to (shared/db/team-wall.ts).
 * The role cannot log in and has no BYPASSRLS; the session user (who owns the tables) is not
 * restricted, so workers, webhooks and migrations work as before. Tables a later migration adds get
 * their grants from the default privileges and must enable the wall themselves (`enableTeamWall`);
 * test/integration/team-wall.test.ts fails for a team-owned table without it.
 */
const ROLE = 'finops_app';
const POLICY = 'team_wall';

export async function enableTeamWall(knex: Knex, table: string, column = 'team_id'): Promise<void> {
  await knex.raw(`alter table ?? enable row level security`, [table]);
  await knex.raw(
    `create policy ${POLICY} on ?? to ${ROLE}
       using (?? = nullif(current_setting('app.team_id', true), '')::uuid)
       with check (?? = nullif(current_setting('app.team_id', true), '')::uuid)`,
    [table, column, column],
  );
}

export async function disableTeamWall(knex: Knex, table: string): Promise<void> {
  await knex.raw(`drop policy if exists ${POLICY} on ??`, [table]);
  await knex.raw(`alter table ?? disable row level security`, [table]);
}

const teamOwnedTables = async (knex: Knex): Promise<string[]> =>
  (
    await knex.raw<{ rows: { table_name: string }[] }>(
      `select c.table_name from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'team_id' and t.table_type = 'BASE TABLE'
        order by 1`,
    )
  ).rows.map((r) => r.table_name);

export async function up(knex: Knex): Promise<void> {
  // Roles belong to the cluster: another database (or a parallel test) may have made it already.
  await knex.raw(`do $$ begin create role ${ROLE} nologin; exception when duplicate_object then null; end $$`);
  // SET ROLE needs membership (a superuser has it anyway; a table owner that is not one needs the grant).
  await knex.raw(`grant ${ROLE} to current_user`);
  await knex.raw(`grant usage on schema public to ${ROLE}`);
  await knex.raw(`grant select, insert, update, delete on all tables in schema public to ${ROLE}`);
  await knex.raw(`grant usage, select on all sequences in schema public to ${ROLE}`);
  await knex.raw(`alter default privileges in schema public grant select, insert, update, delete on tables to ${ROLE}`);
  await knex.raw(`alter default privileges in schema public grant usage, select on sequences to ${ROLE}`);
  for (const table of await teamOwnedTables(knex)) await enableTeamWall(knex, table);
  await enableTeamWall(knex, 'teams', 'id');
}

export async function down(knex: Knex): Promise<void> {
  await disableTeamWall(knex, 'teams');
  for (const table of await teamOwnedTables(knex)) await disableTeamWall(knex, table);
  await knex.raw(`alter default privileges in schema public revoke all on tables from ${ROLE}`);
  await knex.raw(`alter default privileges in schema public revoke all on sequences from ${ROLE}`);
  await knex.raw(`revoke all on all tables in schema public from ${ROLE}`);
  await knex.raw(`revoke all on all sequences in schema public from ${ROLE}`);
  await knex.raw(`revoke usage on schema public from ${ROLE}`);
}
