import type { Config } from '../shared/config';
import type { Db } from '../shared/db/knex';
import { createLogger } from '../shared/logger';
import { createBankAClient, type BankAClient } from '../shared/providers/bank-a';
import { bankBClient, type BankBClient } from '../shared/providers/bank-b';
import { createMailer, type Mailer } from '../shared/providers/mail';
import { createMessagingClient, type MessagingClient } from '../shared/providers/messaging';
import { createStorage, type Storage } from '../shared/providers/storage';
import { createLlmClient } from '../shared/providers/llm';
import { createEcbRatesClient, type EcbRatesClient } from '../shared/providers/exchange-rates';
import { createOcr } from '../shared/domain/receipts/ocr';
import { createReceiptExtractor, type ReceiptExtractor } from '../shared/domain/receipts/extractor';
import type { CategoryLlm } from '../shared/domain/learned-categories/llm';
import { temporalGatewayOptions } from '../shared/temporal/connection-options';
import { createTemporalGateway, type TemporalGateway } from '../shared/temporal/client';
import type { WebhookAttemptOutcome } from '../shared/temporal/webhook-delivery/contract';

/** What activities need from the outside world; the worker builds it once from the config. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  bankA: BankAClient;
  bankB: BankBClient;
  messaging: MessagingClient;
  storage: Storage;
  exchangeRates: EcbRatesClient;
  /** PDF text, OCR, or the LLM when LLM_API_URL is set. */
  receipts: ReceiptExtractor & { close(): Promise<void> };
  /** The language model (LLM_API_URL) that categorises what nothing else did; none without it. */
  categoryLlm?: CategoryLlm;
  /** Temporal as a client: stopping what runs for a team that is being deleted. */
  temporal: TemporalGateway;
  /** What activities count for /metrics (the worker's); absent where nobody scrapes (tests, scripts). */
  metrics?: { deliveryAttempt(outcome: WebhookAttemptOutcome): void };
}

/**
 * Builds every provider client from the config (each reaches its provider through a base URL from
 * config). Tests pass overrides to swap one piece.
 */
export function createActivityDeps(config: Config, db: Db, overrides: Partial<ActivityDeps> = {}): ActivityDeps {
  return {
    config,
    db,
    mailer: overrides.mailer ?? createMailer(config.SMTP_URL, config.MAIL_FROM),
    bankA: createBankAClient({ baseUrl: config.BANK_A_API_URL, clientId: config.BANK_A_CLIENT_ID, secret: config.BANK_A_SECRET }),
    bankB: bankBClient(config),
    messaging: createMessagingClient({
      baseUrl: config.MESSAGING_API_URL,
      accessToken: config.MESSAGING_ACCESS_TOKEN,
      phoneNumberId: config.MESSAGING_PHONE_NUMBER_ID,
    }),
    storage: createStorage(config),
    exchangeRates: createEcbRatesClient({ url: config.FX_RATES_URL }),
    receipts: overrides.receipts ?? createReceiptReader(config),
    temporal: overrides.temporal ?? createTemporalGateway(temporalGatewayOptions(config)),
    categoryLlm: config.LLM_API_URL
      ? {
          client: createLlmClient({ baseUrl: config.LLM_API_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL }),
          model: config.LLM_MODEL,
        }
      : undefined,
    ...overrides,
  };
}

function createReceiptReader(config: Config): ActivityDeps['receipts'] {
  const ocr = createOcr();
  const llm = config.LLM_API_URL
    ? createLlmClient({ baseUrl: config.LLM_API_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL })
    : undefined;
  const logger = createLogger(config, { process: 'worker' });
  const extractor = createReceiptExtractor({
    ocr,
    llm,
    onLlmFailure: (err) => logger.warn({ err: err.message }, 'LLM extraction failed; read the receipt by rules instead'),
  });
  return { ...extractor, close: () => ocr.close() };
}

/** Releases what createActivityDeps opened (not the db, which the caller owns). */
export async function closeActivityDeps(deps: ActivityDeps): Promise<void> {
  deps.mailer.close();
  await deps.receipts.close();
  await deps.temporal.close();
}
