import type { Knex } from 'knex';

/**
 * Connection lifecycle: the provider's consent expiry, which expiry each consent notice was sent for
 * (so each is sent once per expiry, however often the timer's activity runs), and the last error a
 * connection had, kept after it is repaired (error_code/error_message are the current one).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table bank_connections
    add column consent_expires_at timestamptz,
    add column consent_warning_sent_for timestamptz,
    add column consent_expired_sent_for timestamptz,
    add column last_error_code text,
    add column last_error_message text,
    add column last_error_at timestamptz`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table bank_connections
    drop column consent_expires_at,
    drop column consent_warning_sent_for,
    drop column consent_expired_sent_for,
    drop column last_error_code,
    drop column last_error_message,
    drop column last_error_at`);
}
