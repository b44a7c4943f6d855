import type { Knex } from 'knex';

/**
 * A notification email can go to an address outside the team (an accountant an export is shared
 * with): its delivery names the address instead of a member. Exactly one of the two.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
alter table notification_deliveries
  alter column user_id drop not null,
  add column email text,
  add constraint notification_deliveries_recipient_check check ((user_id is null) <> (email is null));
create unique index notification_deliveries_email_unique on notification_deliveries (notification_id, email, channel) where email is not null;
`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
delete from notification_deliveries where user_id is null;
drop index notification_deliveries_email_unique;
alter table notification_deliveries
  drop constraint notification_deliveries_recipient_check,
  drop column email,
  alter column user_id set not null;
`);
}
