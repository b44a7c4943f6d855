import type { Config } from '../../config';
import type { RetentionKind } from '../../temporal/retention/contract';

/** How long each kind is kept (for idempotency keys: past their 24-hour window), from the configuration. */
export function retentionWindows(config: Config): Record<RetentionKind, number> {
  return {
    webhook_payloads: config.RETENTION_WEBHOOK_PAYLOADS,
    delivery_attempts: config.RETENTION_DELIVERY_ATTEMPTS,
    read_notifications: config.RETENTION_READ_NOTIFICATIONS,
    idempotency_keys: config.RETENTION_IDEMPOTENCY_KEYS,
    invoice_links: config.RETENTION_LINK_TOKENS,
    authorization_codes: config.RETENTION_LINK_TOKENS,
    oauth_tokens: config.RETENTION_SESSIONS,
  };
}
