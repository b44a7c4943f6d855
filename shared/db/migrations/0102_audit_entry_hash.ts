import type { Knex } from 'knex';

/**
 * One definition of an entry's hash, `audit_entry_hash(entry, position, previous hash)`, for the
 * sealer (`audit_seal`) and for verify alike, so the two cannot drift apart. The hashed bytes are
 * 0088's `audit_entry_bytes`, unchanged: every sealed entry keeps its hash.
 *
 * Both functions are declared STABLE rather than IMMUTABLE so that PostgreSQL inlines them into the
 * calling statement: a SQL function is inlined only if its body is no more volatile than it says,
 * and the row-to-text cast and `extract` from a timestamptz count as stable. Not inlined, each entry
 * paid for a call of its own, a good part of what verify spends per entry. The result does not
 * depend on any setting (the time is hashed as microseconds since the epoch, not as text).
 */
const SEAL = (entryHash: string) => `
create or replace function audit_seal(p_team uuid, p_limit integer default 1000000) returns integer
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
    update audit_events e set chain_pos = pos, prev_hash = prev, hash = ${entryHash}
     where e.id = r.id returning e.hash into prev;
    n := n + 1;
  end loop;
  return n;
end $$;
`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter function audit_entry_bytes(audit_events, bigint) stable;
create function audit_entry_hash(e audit_events, pos bigint, prev bytea) returns bytea language sql stable as $$
  select sha256(prev || audit_entry_bytes(e, pos))
$$;
${SEAL('audit_entry_hash(e, pos, prev)')}
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
${SEAL('sha256(prev || audit_entry_bytes(e, pos))')}
drop function audit_entry_hash(audit_events, bigint, bytea);
alter function audit_entry_bytes(audit_events, bigint) immutable;
`);
}
