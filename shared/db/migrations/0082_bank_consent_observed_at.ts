import type { Knex } from 'knex';

/**
 * When the bank said what `consent_expires_at` holds. A sync reads the item, then records its consent
 * date; a PENDING_EXPIRATION webhook arriving between the two recorded a newer date that the sync's
 * older read then overwrote. Each record now carries the time of its reading, and an older one is
 * dropped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table bank_connections add column consent_observed_at timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table bank_connections drop column consent_observed_at');
}
