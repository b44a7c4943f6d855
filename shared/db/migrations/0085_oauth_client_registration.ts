import type { Knex } from 'knex';

/**
 * Clients that register themselves (RFC 7591, POST /oauth/register) belong to no team: their
 * `team_id` is null and `self_registered` says why. Until a user first consents to one, it carries
 * `registration_expires_at`, and the API's registration sweep deletes it past that time; the first
 * consent clears it. A team sees such a client only through a consent given in the team: the
 * `consented_clients` policy lets the team wall show, never change, an application a consent of the
 * current team points at (the consent's own policy keeps it to that team).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table oauth_applications
  alter column team_id drop not null,
  add column self_registered boolean not null default false,
  add column registration_expires_at timestamptz,
  add constraint oauth_applications_owner_check check (self_registered = (team_id is null)),
  add constraint oauth_applications_registration_expiry_check check (registration_expires_at is null or self_registered)`);
  await knex.raw(`
create index oauth_applications_registration_expires_at_idx on oauth_applications (registration_expires_at)
  where registration_expires_at is not null`);
  await knex.raw(`
create policy consented_clients on oauth_applications for select to finops_app
  using (exists (
    select 1 from oauth_consents c
     where c.application_id = oauth_applications.id
       and c.team_id = nullif(current_setting('app.team_id', true), '')::uuid))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop policy if exists consented_clients on oauth_applications');
  await knex.raw('delete from oauth_applications where self_registered');
  await knex.raw(`
alter table oauth_applications
  drop constraint oauth_applications_registration_expiry_check,
  drop constraint oauth_applications_owner_check,
  drop column registration_expires_at,
  drop column self_registered,
  alter column team_id set not null`);
}
