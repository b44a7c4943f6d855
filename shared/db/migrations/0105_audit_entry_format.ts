import type { Knex } from 'knex';

/**
 * A cheaper form of the bytes an audit entry's hash covers, for entries written from now on, while
 * every entry sealed before keeps its hash and still verifies.
 *
 * `before` and `after` become `json`, which keeps its text as written, instead of `jsonb`, whose
 * text is rebuilt from its binary form each time it is read: that rebuilding was the largest part
 * of what recomputing a hash cost. The columns are converted with their `jsonb` text, and 0088's row
 * literal of a `json` field is that same text, so the old bytes (format 1) are unchanged.
 *
 * `hash_format` says which bytes an entry's hash covers: 1, 0088's row literal (every entry written
 * before this migration); 2, the default from now on, the binary send form of a row of the same
 * fields and the format itself, the time as its 8-byte microseconds and every text field as its UTF-8
 * bytes (`convert_to`, not the text's own send form, which would depend on the session's
 * `client_encoding`). Each field is length-prefixed, with -1 for null, so no two entries share bytes.
 * An entry whose format is changed behind the trail's back is hashed in the other form and no longer
 * matches; an unknown format hashes to null, which never matches.
 *
 * `audit_entry_hash` stays the one definition for the sealer and verify, and stays inlinable (a single
 * SQL expression, STABLE as 0102 explains).
 */
const FORMAT_2_BYTES = `record_send(row(
    e.hash_format, e.id, e.team_id, pos, e.occurred_at,
    convert_to(e.operation, 'UTF8'), convert_to(e.actor_kind, 'UTF8'), convert_to(e.actor_id, 'UTF8'),
    convert_to(e.credential_kind, 'UTF8'), convert_to(e.credential_id, 'UTF8'), convert_to(e.request_id, 'UTF8'),
    convert_to(e.ip, 'UTF8'), convert_to(e.target_type, 'UTF8'), convert_to(e.target_id, 'UTF8'),
    convert_to(e.action, 'UTF8'), convert_to(e.before::text, 'UTF8'), convert_to(e.after::text, 'UTF8')))`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table audit_events
  alter column before type json using before::json,
  alter column after type json using after::json,
  add column hash_format smallint not null default 1;
alter table audit_events alter column hash_format set default 2;
create or replace function audit_entry_hash(e audit_events, pos bigint, prev bytea) returns bytea language sql stable as $$
  select case e.hash_format
    when 1 then sha256(prev || audit_entry_bytes(e, pos))
    when 2 then sha256(prev || ${FORMAT_2_BYTES})
  end
$$;
`);
}

export async function down(knex: Knex): Promise<void> {
  // A format 2 hash cannot be expressed in format 1 without rewriting the chain, which is what the
  // trail exists to make impossible: going back is refused once such an entry is sealed.
  const { rows } = await knex.raw<{ rows: { n: number }[] }>(
    `select count(*)::int as n from audit_events where hash_format = 2 and hash is not null`,
  );
  if (rows[0].n > 0) throw new Error(`0105 cannot be undone: ${rows[0].n} sealed audit entries are hashed in format 2`);
  await knex.raw(`
create or replace function audit_entry_hash(e audit_events, pos bigint, prev bytea) returns bytea language sql stable as $$
  select sha256(prev || audit_entry_bytes(e, pos))
$$;
alter table audit_events
  drop column hash_format,
  alter column before type jsonb using before::jsonb,
  alter column after type jsonb using after::jsonb;
`);
}
