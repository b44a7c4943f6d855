import type { Knex } from 'knex';

/**
 * API processes keep found credentials in memory (api/auth/credential-cache.ts) and drop them when
 * told. The database tells them, so no code path that revokes access can forget to: any change to a
 * row authentication reads notifies `auth_changed` at commit. Bookkeeping updates (last_used_at) do
 * not, or every request would empty the caches; new keys and tokens do not either, since only found
 * credentials are kept. pg_notify folds identical notifications of one transaction into one.
 */
const TABLES: Array<[table: string, events: string]> = [
  ['api_keys', 'update or delete'],
  ['oauth_tokens', 'update or delete'],
  ['oauth_applications', 'update or delete'],
  ['team_members', 'insert or update or delete'],
  ['teams', 'update or delete'],
  ['users', 'update or delete'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create function notify_auth_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and to_jsonb(old) - 'last_used_at' - 'updated_at' = to_jsonb(new) - 'last_used_at' - 'updated_at' then
    return null;
  end if;
  perform pg_notify('auth_changed', tg_table_name);
  return null;
end $$;
`);
  for (const [table, events] of TABLES) {
    await knex.raw(`create trigger ${table}_auth_changed after ${events} on ${table} for each row execute function notify_auth_changed()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of TABLES) await knex.raw(`drop trigger if exists ${table}_auth_changed on ${table}`);
  await knex.raw('drop function if exists notify_auth_changed()');
}
