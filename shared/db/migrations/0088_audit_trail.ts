import type { Knex } from 'knex';
import { disableTeamWall, enableTeamWall } from './0054_team_wall';

/**
 * The audit trail: one row in `audit_events` for every insert, update and delete of a team's data,
 * written by a row trigger on each audited table, so the entry is part of the statement that made
 * the change and commits or rolls back with it whatever transaction the service used. Who acted
 * and why comes from the connection's `app.audit` setting (shared/db/team-wall.ts sets it from the
 * caller's scope); a change made outside any scope is still recorded, as `system` / `unattributed`.
 *
 * Entries are chained per team without a lock on the write path: a writer only inserts (with its
 * transaction id and a sequence, as the event feed does), and `audit_seal(team)` later links the
 * entries of finished transactions in (xid, seq) order, giving each its chain position, the previous
 * entry's hash and its own, exactly once. `audit_events_immutable` refuses every other update and any
 * delete, whoever asks; the application role is also granted neither. Checkpoints (the day's last
 * hash, signed by the server's Ed25519 key) are kept the same way in `audit_checkpoints`.
 *
 * The rows outlive their team (no reference to `teams`): deleting a team deletes its data, not the
 * record of what was done to it.
 */

/**
 * Secrets (hashes included): never copied into an entry. An update that changes one (a rotated
 * secret) says so, `"[changed]"`, without its value.
 */
export const AUDIT_SECRET_COLUMNS: Record<string, readonly string[]> = {
  api_keys: ['key_hash'],
  bank_connections: ['access_token_encrypted'],
  oauth_applications: ['client_secret_hash'],
  invoice_links: ['token_hash'],
  accountant_links: ['token_hash'],
  webhook_endpoints: ['secret_encrypted'],
};
/** Columns derived from others or kept as bookkeeping: left out, and an update of only these writes no entry. */
export const AUDIT_OMITTED_COLUMNS: Record<string, readonly string[]> = {
  api_keys: ['last_used_at'],
  bank_connections: ['sync_cursor'],
  documents: ['content', 'search_vector', 'search_shingles'],
  transactions: ['search_vector'],
};
/** Omitted everywhere: an update that changes only these writes no entry. */
const ALWAYS_OMITTED = ['updated_at'];

/** Tables whose primary key is not `id`. */
const KEYS: Record<string, readonly string[]> = {
  document_tags: ['document_id', 'tag_id'],
  notification_settings: ['user_id', 'type'],
};

/**
 * Team tables that are not audited, and why: each is a log or a copy of something that is.
 * test/integration/audit-trail.test.ts fails for a table with a `team_id` that is neither audited
 * nor listed here.
 */
export const AUDIT_EXCLUDED_TABLES: Record<string, string> = {
  audit_events: 'the trail itself',
  audit_checkpoints: 'the trail itself',
  events: 'the event feed, an append-only log of changes already audited',
  idempotency_keys: 'stored responses for replays, not data',
  transaction_daily_totals: 'derived from transactions by triggers',
  transaction_totals_pending: 'deltas of transaction_daily_totals, folded in at the commit of the transaction that wrote them (0108)',
  document_number_counters: 'the number series behind invoice and credit note numbers, which are audited',
  webhook_deliveries: 'outbound delivery bookkeeping of events',
  webhook_delivery_attempts: 'outbound delivery bookkeeping of events',
  webhook_events: 'the record of inbound provider webhooks',
  notification_deliveries: 'delivery bookkeeping of notifications',
  invoice_deliveries: 'delivery bookkeeping; the invoice row records what was sent',
  invoice_views: 'anonymous views of a public invoice link',
  notification_states: "a user's read marks",
  oauth_authorization_codes: 'short-lived codes; the consent they come from is audited',
  oauth_tokens: 'access tokens rotate on every refresh; the consent and the application are audited',
  users: 'a user, not a team: its team_id is only the current team',
  transaction_rule_runs: 'progress of an ApplyRules run (0089), updated with every batch; the changes it makes are audited',
};

const auditedTables = async (knex: Knex): Promise<string[]> =>
  (
    await knex.raw<{ rows: { table_name: string }[] }>(
      `select c.table_name from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'team_id' and t.table_type = 'BASE TABLE'
        order by 1`,
    )
  ).rows
    .map((r) => r.table_name)
    .filter((t) => !(t in AUDIT_EXCLUDED_TABLES));

/** The audit triggers' arguments for one table: team column, key columns, omitted columns, secret columns. */
export function auditTriggerArgs(table: string, teamColumn = 'team_id'): string[] {
  const secrets = AUDIT_SECRET_COLUMNS[table] ?? [];
  const omitted = [...ALWAYS_OMITTED, ...(AUDIT_OMITTED_COLUMNS[table] ?? []), ...secrets].join(',');
  const keys = (KEYS[table] ?? ['id']).join(',');
  return [teamColumn, keys, omitted, secrets.join(',')];
}

/**
 * Adds the audit trigger to one table, in the form of this migration (the migrations up to 0110 call
 * it; a team table made after 0110 calls 0110's `auditTable`, which audits inserts per statement).
 */
export async function auditTable(knex: Knex, table: string, teamColumn = 'team_id'): Promise<void> {
  await knex.raw(
    `create trigger audit_row after insert or update or delete on ?? for each row execute function audit_row(${auditTriggerArgs(
      table,
      teamColumn,
    )
      .map((a) => `'${a}'`)
      .join(', ')})`,
    [table],
  );
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
create table audit_events (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null,
  xid xid8 not null default pg_current_xact_id(),
  seq bigint generated always as identity,
  occurred_at timestamptz not null default statement_timestamp(),
  operation text not null,
  actor_kind text not null,
  actor_id text,
  credential_kind text not null,
  credential_id text,
  request_id text,
  ip text,
  target_type text not null,
  target_id text,
  action text not null check (action in ('insert', 'update', 'delete')),
  before jsonb,
  after jsonb,
  -- Filled once by audit_seal: the entry's place in its team's chain, the hash before it and its own.
  chain_pos bigint,
  prev_hash bytea,
  hash bytea
);
create unique index audit_events_chain_idx on audit_events (team_id, chain_pos) where chain_pos is not null;
create index audit_events_unsealed_idx on audit_events (team_id, xid, seq) where chain_pos is null;
create index audit_events_time_idx on audit_events (team_id, occurred_at desc, id desc);
create index audit_events_target_idx on audit_events (team_id, target_type, target_id);

create table audit_checkpoints (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null,
  day date not null,
  chain_pos bigint not null,
  hash bytea not null,
  key_id text not null,
  signature bytea not null,
  created_at timestamptz not null default now(),
  unique (team_id, day)
);

-- What an entry's hash covers: its fields as a row literal (unambiguous: a null is empty, an empty
-- string is ""), the time as microseconds since the epoch so that no session setting can change the
-- text. A row literal rather than a JSON array: verify walks twice as fast.
create function audit_entry_bytes(e audit_events, pos bigint) returns bytea language sql immutable as $$
  select convert_to(row(
    e.id, e.team_id, pos, (extract(epoch from e.occurred_at) * 1000000)::bigint, e.operation, e.actor_kind, e.actor_id,
    e.credential_kind, e.credential_id, e.request_id, e.ip, e.target_type, e.target_id, e.action, e.before, e.after
  )::text, 'UTF8')
$$;

create function audit_row() returns trigger language plpgsql as $$
declare
  ctx jsonb := nullif(current_setting('app.audit', true), '')::jsonb;
  omitted text[] := string_to_array(tg_argv[2], ',');
  keys text[] := string_to_array(tg_argv[1], ',');
  old_row jsonb;
  new_row jsonb;
  b jsonb;
  a jsonb;
  whole jsonb;
  secret_b jsonb;
  secret_a jsonb;
begin
  if tg_op <> 'INSERT' then old_row := to_jsonb(old) - omitted; end if;
  if tg_op <> 'DELETE' then new_row := to_jsonb(new) - omitted; end if;
  if tg_op = 'UPDATE' then
    select jsonb_object_agg(n.key, o.value), jsonb_object_agg(n.key, n.value) into b, a
      from jsonb_each(new_row) n join jsonb_each(old_row) o using (key)
     where n.value is distinct from o.value;
    if tg_argv[3] <> '' then
      select jsonb_object_agg(k, to_jsonb('[redacted]'::text)), jsonb_object_agg(k, to_jsonb('[changed]'::text)) into secret_b, secret_a
        from unnest(string_to_array(tg_argv[3], ',')) k
       where to_jsonb(old) -> k is distinct from to_jsonb(new) -> k;
      if secret_a is not null then
        b := coalesce(b, '{}') || secret_b;
        a := coalesce(a, '{}') || secret_a;
      end if;
    end if;
    if a is null then return null; end if;
  else
    b := old_row;
    a := new_row;
  end if;
  whole := coalesce(new_row, old_row);
  -- A row of no team (an OAuth client that registered itself) is not a team's data.
  if whole ->> tg_argv[0] is null then return null; end if;
  insert into audit_events (team_id, operation, actor_kind, actor_id, credential_kind, credential_id, request_id, ip,
                            target_type, target_id, action, before, after)
  values ((whole ->> tg_argv[0])::uuid, coalesce(ctx ->> 'op', 'unattributed'), coalesce(ctx ->> 'actor', 'system'), ctx ->> 'actorId',
          coalesce(ctx ->> 'cred', 'system'), ctx ->> 'credId', ctx ->> 'req', ctx ->> 'ip',
          tg_table_name, (select string_agg(whole ->> k, ':') from unnest(keys) k), lower(tg_op), b, a);
  return null;
end $$;

-- Only audit_seal's one-time filling of the chain columns; nothing else, whoever asks.
create function audit_immutable() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and tg_table_name = 'audit_events' and old.hash is null and new.hash is not null
     and to_jsonb(new) - '{chain_pos,prev_hash,hash}'::text[] = to_jsonb(old) - '{chain_pos,prev_hash,hash}'::text[] then
    return new;
  end if;
  raise exception 'audit trail rows cannot be changed or deleted (%)', tg_table_name using errcode = 'insufficient_privilege';
end $$;
create trigger audit_events_immutable before update or delete on audit_events for each row execute function audit_immutable();
create trigger audit_checkpoints_immutable before update or delete on audit_checkpoints for each row execute function audit_immutable();
create function audit_no_truncate() returns trigger language plpgsql as $$
begin
  raise exception 'audit trail rows cannot be deleted (%)', tg_table_name using errcode = 'insufficient_privilege';
end $$;
create trigger audit_events_no_truncate before truncate on audit_events execute function audit_no_truncate();
create trigger audit_checkpoints_no_truncate before truncate on audit_checkpoints execute function audit_no_truncate();

-- Links a team's unsealed entries into its chain, in (xid, seq) order and only those of transactions
-- that have ended (below the snapshot's xmin), so no entry can later appear before one already
-- sealed. Runs as the owner (the application role may not update entries); the advisory lock keeps
-- two sealers of one team apart, never a writer.
create function audit_seal(p_team uuid, p_limit integer default 1000000) returns integer
language plpgsql security definer set search_path = public as $$
declare
  horizon xid8 := pg_snapshot_xmin(pg_current_snapshot());
  prev bytea;
  pos bigint;
  r record;
  n integer := 0;
begin
  perform pg_advisory_xact_lock(hashtextextended('audit_seal:' || p_team::text, 0));
  select e.hash, e.chain_pos into prev, pos from audit_events e
   where e.team_id = p_team and e.chain_pos is not null order by e.chain_pos desc limit 1;
  prev := coalesce(prev, '\\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);
  pos := coalesce(pos, 0);
  for r in select e.id from audit_events e
            where e.team_id = p_team and e.chain_pos is null and e.xid < horizon
            order by e.xid, e.seq limit p_limit loop
    pos := pos + 1;
    update audit_events e set chain_pos = pos, prev_hash = prev, hash = sha256(prev || audit_entry_bytes(e, pos))
     where e.id = r.id returning e.hash into prev;
    n := n + 1;
  end loop;
  return n;
end $$;
`);
  await enableTeamWall(knex, 'audit_events');
  await enableTeamWall(knex, 'audit_checkpoints');
  // The application role appends and reads; sealing goes through audit_seal, which runs as the owner.
  await knex.raw(`revoke update, delete, truncate on audit_events, audit_checkpoints from finops_app`);
  for (const table of await auditedTables(knex)) await auditTable(knex, table);
  await auditTable(knex, 'teams', 'id');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of await auditedTables(knex)) await knex.raw('drop trigger if exists audit_row on ??', [table]);
  await knex.raw('drop trigger if exists audit_row on teams');
  await disableTeamWall(knex, 'audit_checkpoints');
  await disableTeamWall(knex, 'audit_events');
  await knex.raw(`
drop function if exists audit_seal(uuid, integer);
drop table if exists audit_checkpoints;
drop table if exists audit_events;
drop function if exists audit_row();
drop function if exists audit_immutable();
drop function if exists audit_no_truncate();
drop function if exists audit_entry_bytes(audit_events, bigint);
`);
}
