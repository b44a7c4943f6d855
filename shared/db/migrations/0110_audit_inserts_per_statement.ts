import type { Knex } from 'knex';
import { auditTriggerArgs } from './0088_audit_trail';

/**
 * Inserts are audited once per statement instead of once per row: `audit_rows_inserted` writes the
 * entries of every row a statement inserted in one `insert … select` over the statement's new rows
 * (a transition table). The entries are the ones 0088's `audit_row` writes for an insert, field for
 * field: the same context, the row as JSON less its omitted and secret columns, no `before`, in the
 * order the rows were inserted. Updates and deletes keep the row trigger, which compares each row
 * with its old version.
 *
 * The row trigger ran a statement of its own for each row, which cost more than the insert it
 * recorded: a bank sync's page, an import's batch and a rule's tags paid it once per row.
 *
 * Each audited table keeps its arguments (team column, key columns, omitted columns, secret columns);
 * the insert trigger takes the same ones.
 */

const INSERT_TRIGGER = 'audit_rows_inserted';

/** The audited tables and their triggers' arguments, as 0088 (and the migrations after it) made them. */
async function auditedTables(knex: Knex): Promise<{ table: string; args: string[] }[]> {
  const { rows } = await knex.raw<{ rows: { table: string; args: string[] }[] }>(
    `select tgrelid::regclass::text as table,
            (string_to_array(encode(tgargs, 'escape'), '\\000'))[1:tgnargs] as args
       from pg_trigger where tgname = 'audit_row' and not tgisinternal order by 1`,
  );
  return rows;
}

const argList = (args: readonly string[]) => args.map((a) => `'${a.replace(/'/g, "''")}'`).join(', ');

/** The row trigger for updates and deletes and the statement trigger for inserts, on one table. */
async function auditTableInserts(knex: Knex, table: string, args: readonly string[]): Promise<void> {
  await knex.raw(`drop trigger if exists audit_row on ??`, [table]);
  await knex.raw(`create trigger audit_row after update or delete on ?? for each row execute function audit_row(${argList(args)})`, [
    table,
  ]);
  await knex.raw(
    `create trigger ${INSERT_TRIGGER} after insert on ?? referencing new table as audit_inserted
       for each statement execute function audit_rows_inserted(${argList(args)})`,
    [table],
  );
}

/** Audits a team table made after this migration: its updates and deletes per row, its inserts per statement. */
export async function auditTable(knex: Knex, table: string, teamColumn = 'team_id'): Promise<void> {
  await auditTableInserts(knex, table, auditTriggerArgs(table, teamColumn));
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create function audit_rows_inserted() returns trigger language plpgsql as $$
declare
  ctx jsonb := nullif(current_setting('app.audit', true), '')::jsonb;
  omitted text[] := string_to_array(tg_argv[2], ',');
  keys text[] := string_to_array(tg_argv[1], ',');
begin
  insert into audit_events (team_id, operation, actor_kind, actor_id, credential_kind, credential_id, request_id, ip,
                            target_type, target_id, action, before, after)
  select (n.row ->> tg_argv[0])::uuid, coalesce(ctx ->> 'op', 'unattributed'), coalesce(ctx ->> 'actor', 'system'), ctx ->> 'actorId',
         coalesce(ctx ->> 'cred', 'system'), ctx ->> 'credId', ctx ->> 'req', ctx ->> 'ip',
         tg_table_name, (select string_agg(n.row ->> k, ':') from unnest(keys) k), 'insert', null, n.row
    from (select to_jsonb(r) - omitted as row from audit_inserted r) n
   -- A row of no team (an OAuth client that registered itself) is not a team's data.
   where n.row ->> tg_argv[0] is not null;
  return null;
end $$;
`);
  for (const { table, args } of await auditedTables(knex)) await auditTableInserts(knex, table, args);
}

export async function down(knex: Knex): Promise<void> {
  for (const { table, args } of await auditedTables(knex)) {
    await knex.raw(`drop trigger if exists ${INSERT_TRIGGER} on ??`, [table]);
    await knex.raw(`drop trigger audit_row on ??`, [table]);
    await knex.raw(
      `create trigger audit_row after insert or update or delete on ?? for each row execute function audit_row(${argList(args)})`,
      [table],
    );
  }
  await knex.raw('drop function audit_rows_inserted()');
}
