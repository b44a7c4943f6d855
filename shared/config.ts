import { accessSync, constants } from 'node:fs';
import { z } from 'zod';

/**
 * The whole environment, parsed once. Every variable is documented in `.env.example`;
 * defaults are the ones that make `npm start` work on a fresh machine.
 * Secrets have development defaults only outside production: in production a missing secret is an error.
 */

const DEV_JWT_SECRET = 'dev-only-session-secret-change-me-0123456789';
const DEV_ENCRYPTION_KEY = '0'.repeat(64);
// Fixed, so that every process of a development set-up signs and verifies with the same key.
const DEV_AUDIT_SIGNING_KEY = '1'.repeat(64);

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const port = z.coerce.number().int().min(0).max(65535);

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Duration like `7d`, `12h`, `30m`, `45s` or a number of milliseconds. */
const duration = z.string().transform((v, ctx) => {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(v.trim());
  if (!m) {
    ctx.addIssue({ code: 'custom', message: 'expected a duration such as 7d, 12h, 30m, 45s or milliseconds' });
    return z.NEVER;
  }
  // The unit group is optional: when it did not match, exec leaves undefined where its type says string.
  const unit = (m[2] as keyof typeof UNIT_MS | undefined) ?? 'ms';
  return Number(m[1]) * UNIT_MS[unit];
});

const url = z.url();

/** PEM text, or the path of a readable file holding it. */
const pemOrPath = z
  .string()
  .refine(
    (v) => {
      if (v.trimStart().startsWith('-----BEGIN')) return true;
      try {
        accessSync(v, constants.R_OK);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be PEM text (-----BEGIN …) or the path of a readable file' },
  )
  .optional();

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // json: one JSON object per line (for machines). pretty: colours for a person; `npm start` picks it at a terminal.
    LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),

    // Gateway
    HOST: z.string().default('0.0.0.0'),
    PORT: port.default(3000),
    // Where this API is reached from outside: links in emails, OpenAPI servers, OAuth metadata. Unset in development: http://localhost:PORT.
    PUBLIC_URL: url.optional(),
    ALLOWED_API_ORIGINS: list.default(['http://localhost:3000', 'http://localhost:3001']),
    TRUST_PROXY: bool.default(false),
    // After SIGTERM or SIGINT the API stops accepting and lets requests in flight finish for this long, then cuts the rest.
    SHUTDOWN_GRACE: duration.default(10_000),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
    // Failed authentications (wrong key, token, password) an IP may make per minute before it must wait.
    AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
    // OAuth clients that register themselves (RFC 7591): per IP per hour; deleted when nobody consented within the TTL.
    OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().positive().default(20),
    OAUTH_REGISTRATION_TTL: duration.default(86_400_000),
    OAUTH_REGISTRATION_SWEEP_INTERVAL: duration.default(10 * 60_000),
    // An Idempotency-Key whose request has not finished in this long (its process died mid-request) may be claimed again.
    IDEMPOTENCY_LEASE: duration.default(120_000),
    // How long a process may reuse a found credential; changes end it at once (NOTIFY). 0: look up every request.
    AUTH_CACHE_TTL: duration.default(60_000),
    // Counters shared by every API process: Redis when set, else PostgreSQL.
    // How often the API acts again on provider events that could not be acted on at once (Temporal down, a crash).
    WEBHOOK_RELAY_INTERVAL: duration.default(2000),
    // An event a process took and did not finish in this long (it died mid-request) is taken up again.
    WEBHOOK_RELAY_STALE_AFTER: duration.default(60_000),
    // How often each API process looks for notification emails to hand to a NotificationDelivery workflow.
    NOTIFICATION_RELAY_INTERVAL: duration.default(1000),
    // How often each API process starts processing documents an upload stored but did not get to start (a crash, Temporal down).
    DOCUMENT_SWEEP_INTERVAL: duration.default(30_000),
    // A document still pending this long after its upload is swept; shorter than that, its upload may still be starting it.
    DOCUMENT_PENDING_GRACE: duration.default(60_000),
    // The event feed (GET /events) keeps events this long (a team's newest is always kept); each API process sweeps older ones this often.
    EVENTS_RETENTION: duration.default(30 * 86_400_000),
    EVENTS_SWEEP_INTERVAL: duration.default(3_600_000),
    // An idle event stream (GET /events/stream) sends a heartbeat this often.
    EVENTS_STREAM_HEARTBEAT: duration.default(15_000),
    // Webhooks out (POST /webhook-endpoints): how often each API process starts deliveries still waiting for their workflow.
    WEBHOOK_DELIVERY_RELAY_INTERVAL: duration.default(1000),
    // A delivery is retried with exponential backoff (first wait, longest wait) for this long, then given up.
    WEBHOOK_RETRY_WINDOW: duration.default(3 * 86_400_000),
    WEBHOOK_RETRY_INITIAL_INTERVAL: duration.default(30_000),
    WEBHOOK_RETRY_MAX_INTERVAL: duration.default(6 * 3_600_000),
    // An endpoint whose deliveries have failed without a success for this long is disabled and the team notified.
    WEBHOOK_DISABLE_AFTER: duration.default(5 * 86_400_000),
    // How long one delivery attempt may take (connect to last byte).
    WEBHOOK_TIMEOUT: duration.default(15_000),
    // Let endpoints on private, loopback, link-local and unique-local addresses be registered and called (tests, local development).
    WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL')
      .optional(),
    // Check every REST response against its schema (tests turn it on; it costs time on every request).
    VALIDATE_RESPONSES: bool.default(false),

    // PostgreSQL. Unset: `npm start` and `npm test` run an embedded PostgreSQL.
    DATABASE_URL: url.optional(),
    DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
    EMBEDDED_PG_PORT: port.default(5433),
    // Where `npm start` keeps local state: embedded PostgreSQL data, Temporal's SQLite file, logs.
    DATA_DIR: z.string().default('.data'),

    // Temporal
    TEMPORAL_ADDRESS: z.string().default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().default('default'),
    TEMPORAL_TASK_QUEUE: z.string().default('finops'),
    // TLS to Temporal: on when any TEMPORAL_TLS_* or TEMPORAL_API_KEY is set; TEMPORAL_TLS=true alone trusts the system's CAs.
    TEMPORAL_TLS: bool.optional(),
    // mTLS: this process's certificate and private key (both or neither), each a file path or the PEM text itself.
    TEMPORAL_TLS_CERT: pemOrPath,
    TEMPORAL_TLS_KEY: pemOrPath,
    // The CA that signed the server's certificate (path or PEM), when the system does not trust it.
    TEMPORAL_TLS_CA: pemOrPath,
    // The name the server's certificate is checked against, when it is not the host of TEMPORAL_ADDRESS.
    TEMPORAL_TLS_SERVER_NAME: z.string().optional(),
    // Temporal Cloud's API key: sent as `authorization: Bearer …` on every call, over TLS.
    TEMPORAL_API_KEY: z.string().optional(),
    TEMPORAL_UI_URL: url.default('http://localhost:8233'),
    TEMPORAL_CLI: z.string().optional(),
    WORKFLOW_BUNDLE_PATH: z.string().optional(),
    // The worker's /livez and /readyz (no API there): loopback by default, for a probe on the same host or in the same container. 0: any free port.
    WORKER_HEALTH_HOST: z.string().default('127.0.0.1'),
    WORKER_HEALTH_PORT: port.default(3100),
    // After SIGTERM or SIGINT a worker polls no more and lets activities in flight finish for this long, then cancels them.
    WORKER_SHUTDOWN_GRACE: duration.default(30_000),
    // The API's Prometheus /metrics, on a listener of its own (never the public PORT): loopback by default. 0: any free port.
    METRICS_HOST: z.string().default('127.0.0.1'),
    METRICS_PORT: port.default(9464),
    // Traces: OTLP over HTTP to this collector (e.g. http://collector:4318; spans go to its /v1/traces). Unset: no tracing,
    // and the OpenTelemetry SDK is never loaded.
    OTEL_EXPORTER_OTLP_ENDPOINT: url.optional(),
    // The service name on this process's spans; unset: finops-api or finops-worker.
    OTEL_SERVICE_NAME: z.string().min(1).optional(),

    // Identity provider session tokens
    AUTH_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    AUTH_JWKS_URL: url.optional(),
    AUTH_JWT_ISSUER: z.string().optional(),
    AUTH_JWT_AUDIENCE: z.string().optional(),
    // The first request of an unknown subject with a verified email creates the user and a personal team.
    AUTH_AUTO_PROVISION: bool.default(false),

    // Teams: invitations by email, deletion in batches
    DASHBOARD_URL: url.default('http://localhost:3001'),
    INVITATION_TTL: duration.default(7 * 86_400_000),
    // Every connected bank connection is also synced on this interval, in case its webhooks do not come.
    BANK_SYNC_INTERVAL: duration.default(6 * 3_600_000),
    // How long before a bank consent expires the team hears of it (BankConsentExpiry); it hears again on expiry.
    BANK_CONSENT_NOTICE_LEAD: duration.default(7 * 86_400_000),
    // A pending bank transaction not booked within this many days of its date is removed (the team hears of it).
    PENDING_TRANSACTION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(14),
    // Recurring invoices: every series issues on this interval instead of its calendar (demos and tests only).
    INVOICE_SERIES_INTERVAL: duration.optional(),
    TEAM_DELETION_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(5000),
    // Recurring payments: the weekly insight names one whose latest payment moved the amount by more than this share.
    RECURRING_AMOUNT_CHANGE_SHARE: z.coerce.number().min(0).max(10).default(0.1),

    // The assistant (chat and MCP): messages per user per window; the model is LLM_API_URL/LLM_MODEL when set.
    CHAT_RATE_LIMIT: z.coerce.number().int().positive().default(100),
    CHAT_RATE_LIMIT_WINDOW: duration.default(10 * 60_000),

    // Secrets at rest (bank access tokens): 32 bytes as 64 hex characters.
    ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
      .optional(),
    // Earlier keys, comma-separated, still opened while ReEncrypt seals their values under ENCRYPTION_KEY again (a worker
    // started with any here starts that run); remove a key once its run has completed.
    ENCRYPTION_KEYS_RETIRED: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean)
          : [],
      )
      .pipe(z.array(z.string().regex(/^[0-9a-fA-F]{64}$/, 'each must be 64 hexadecimal characters (32 bytes)'))),
    // Rows ReEncrypt seals again per activity (one statement each).
    RE_ENCRYPT_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),

    // The audit trail's daily checkpoints are signed with this Ed25519 key: its 32-byte seed as 64 hex characters.
    AUDIT_SIGNING_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (an Ed25519 seed of 32 bytes)')
      .optional(),

    // Outbound mail
    // Unset under `npm start`: its mail catcher receives here (or on a free port when this one is taken) and shows what it caught.
    SMTP_URL: z.string().default('smtp://127.0.0.1:1025'),
    // The catcher's web page, where every mail `npm start` sends can be read (only when SMTP_URL is unset).
    MAIL_CATCHER_PORT: port.default(1080),
    MAIL_FROM: z.string().default('Finops <no-reply@finops.local>'),

    // bank-a (Plaid wire format)
    BANK_A_API_URL: url.default('http://127.0.0.1:4010'),
    BANK_A_CLIENT_ID: z.string().default('dev-client-id'),
    BANK_A_SECRET: z.string().default('dev-secret'),
    // Which bank-a environment the credentials belong to; Link sessions name the webhook URL for it.
    BANK_A_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
    // The sandbox's own base address for the bank-a webhook (a staging host); unset: PUBLIC_URL.
    BANK_A_SANDBOX_WEBHOOK_BASE_URL: url.optional(),
    // bank-b (Teller wire format)
    BANK_B_API_URL: url.default('http://127.0.0.1:4011'),
    BANK_B_WEBHOOK_SECRETS: list.default([]),
    // The application bank-b's Connect sessions are created for, and its environment.
    BANK_B_APPLICATION_ID: z.string().default('app_dev'),
    BANK_B_ENVIRONMENT: z.enum(['sandbox', 'development', 'production']).default('sandbox'),
    // payments (Stripe wire format) and subscriptions (Standard Webhooks)
    PAYMENTS_WEBHOOK_SECRET: z.string().optional(),
    SUBSCRIPTIONS_WEBHOOK_SECRET: z.string().optional(),

    // messaging (WhatsApp Cloud API wire format)
    MESSAGING_API_URL: url.default('http://127.0.0.1:4012'),
    MESSAGING_ACCESS_TOKEN: z.string().default('dev-messaging-token'),
    MESSAGING_PHONE_NUMBER_ID: z.string().default('000000000000000'),
    MESSAGING_VERIFY_TOKEN: z.string().default('dev-verify-token'),
    MESSAGING_APP_SECRET: z.string().default('dev-app-secret'),

    // Inbound email (Postmark inbound format)
    INBOX_DOMAIN: z.string().default('inbox.finops.local'),
    INBOX_WEBHOOK_USERNAME: z.string().default('inbox'),
    INBOX_WEBHOOK_PASSWORD: z.string().default('dev-inbox-password'),
    INBOX_WEBHOOK_ALLOWED_IPS: list.default([]),

    // Receipts
    STORAGE_DIR: z.string().default('.data/storage'),
    // Searched before Debian's font directories for the Unicode fonts of invoice PDFs (shared/domain/invoices/fonts.ts).
    PDF_FONT_DIR: z.string().optional(),
    S3_ENDPOINT: url.optional(),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    // Documents (POST /documents): the largest file, the most files in one request, how long a signed upload URL lives.
    DOCUMENT_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(25 * 1024 * 1024),
    DOCUMENT_MAX_FILES: z.coerce.number().int().min(1).max(100).default(10),
    DOCUMENT_UPLOAD_URL_TTL: duration.default(10 * 60_000),
    // Statement imports (POST /transactions/import and its preview): the largest file.
    IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(100 * 1024 * 1024),
    LLM_API_URL: url.optional(),
    LLM_API_KEY: z.string().optional(),
    LLM_MODEL: z.string().default('gpt-4o-mini'),
    RECEIPT_DECISION_TIMEOUT: duration.default(7 * 86_400_000),
    // How long a write an AI agent proposed waits for a person's approval before it expires.
    AGENT_ACTION_EXPIRY: duration.default(86_400_000),
    // Reference exchange rates (ECB XML format), fetched daily to match receipts in other currencies.
    FX_RATES_URL: url.default('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml'),
    FX_RATES_SCHEDULE: bool.default(true),
    // The daily `retention-daily` schedule (workflow Retention), kept in line by each worker start; false leaves it alone.
    RETENTION_SCHEDULE: bool.default(true),
    // How long each kind is kept before the daily prune removes it (each as a duration: 30d, 12h, …).
    // Payloads of provider webhooks acted on (the row and its key stay: a redelivery is still a no-op).
    RETENTION_WEBHOOK_PAYLOADS: duration.default(30 * 86_400_000),
    // Attempts of finished webhook deliveries.
    RETENTION_DELIVERY_ATTEMPTS: duration.default(30 * 86_400_000),
    // Notifications everyone they are for has read or archived, with no email left to send.
    RETENTION_READ_NOTIFICATIONS: duration.default(90 * 86_400_000),
    // Idempotency keys, counted from the end of their 24-hour window.
    RETENTION_IDEMPOTENCY_KEYS: duration.default(0),
    // Revoked public invoice links, and OAuth authorization codes past their expiry that no token points at.
    RETENTION_LINK_TOKENS: duration.default(7 * 86_400_000),
    // OAuth token families (sessions) whose every token has expired or been revoked.
    RETENTION_SESSIONS: duration.default(30 * 86_400_000),
    // Rows per prune statement.
    RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  })
  .superRefine((env, ctx) => {
    if (env.S3_BUCKET) {
      for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when S3_BUCKET is set' });
      }
    }
    if (Boolean(env.TEMPORAL_TLS_CERT) !== Boolean(env.TEMPORAL_TLS_KEY)) {
      const missing = env.TEMPORAL_TLS_CERT ? 'TEMPORAL_TLS_KEY' : 'TEMPORAL_TLS_CERT';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required with the other: mTLS needs both the certificate and its key' });
    }
    if (env.TEMPORAL_TLS === false) {
      for (const key of [
        'TEMPORAL_TLS_CERT',
        'TEMPORAL_TLS_KEY',
        'TEMPORAL_TLS_CA',
        'TEMPORAL_TLS_SERVER_NAME',
        'TEMPORAL_API_KEY',
      ] as const) {
        if (env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'needs TLS, which TEMPORAL_TLS=false turns off' });
      }
    }
    if (env.NODE_ENV !== 'production') return;
    for (const key of ['AUTH_JWT_SECRET', 'ENCRYPTION_KEY', 'AUDIT_SIGNING_KEY', 'DATABASE_URL'] as const) {
      if (!env[key] && !(key === 'AUTH_JWT_SECRET' && env.AUTH_JWKS_URL)) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
      }
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: env.PUBLIC_URL ?? (env.NODE_ENV === 'development' && env.PORT !== 0 ? `http://localhost:${env.PORT}` : undefined),
    AUTH_JWT_SECRET: env.AUTH_JWT_SECRET ?? (env.AUTH_JWKS_URL ? undefined : DEV_JWT_SECRET),
    ENCRYPTION_KEY: env.ENCRYPTION_KEY ?? DEV_ENCRYPTION_KEY,
    AUDIT_SIGNING_KEY: env.AUDIT_SIGNING_KEY ?? DEV_AUDIT_SIGNING_KEY,
  }));

export type Config = z.output<typeof schema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError listing every bad or missing value at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty string means "unset", as it does in most .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return result.data;
}
