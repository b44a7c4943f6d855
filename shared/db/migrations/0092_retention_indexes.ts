import type { Knex } from 'knex';

/**
 * The daily prune (workflow Retention, shared/domain/retention/prune.ts) finds each batch by age:
 * these indexes let every batch read only rows past their window instead of scanning the table
 * again for each batch. Idempotency keys have theirs (0051); notifications' (team_id, created_at)
 * does not serve an age across teams.
 */
const INDEXES = [
  [
    'webhook_events_payload_prunable_idx',
    `webhook_events (processed_at) where payload is not null and outcome in ('processed', 'ignored')`,
  ],
  ['webhook_delivery_attempts_created_at_idx', 'webhook_delivery_attempts (created_at)'],
  ['notifications_created_at_idx', 'notifications (created_at)'],
  ['invoice_links_revoked_at_idx', 'invoice_links (revoked_at) where revoked_at is not null'],
  ['oauth_authorization_codes_expires_at_idx', 'oauth_authorization_codes (expires_at)'],
  ['oauth_tokens_authorization_code_idx', 'oauth_tokens (authorization_code_id) where authorization_code_id is not null'],
] as const;

export async function up(knex: Knex): Promise<void> {
  for (const [name, on] of INDEXES) await knex.raw(`create index ${name} on ${on}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`drop index if exists ${name}`);
}
