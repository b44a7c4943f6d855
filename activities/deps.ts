import type { Config } from '../shared/config';
import type { Db } from '../shared/db/knex';
import { createBankAClient, type BankAClient } from '../shared/providers/bank-a';
import { createBankBClient, type BankBClient } from '../shared/providers/bank-b';
import { createMailer, type Mailer } from '../shared/providers/mail';
import { createMessagingClient, type MessagingClient } from '../shared/providers/messaging';
import { createStorage, type Storage } from '../shared/providers/storage';

/** What activities need from the outside world; the worker builds it once from the config. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  bankA: BankAClient;
  bankB: BankBClient;
  messaging: MessagingClient;
  storage: Storage;
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
    bankB: createBankBClient({ baseUrl: config.BANK_B_API_URL }),
    messaging: createMessagingClient({ baseUrl: config.MESSAGING_API_URL, accessToken: config.MESSAGING_ACCESS_TOKEN, phoneNumberId: config.MESSAGING_PHONE_NUMBER_ID }),
    storage: createStorage(config),
    ...overrides,
  };
}

/** Releases what createActivityDeps opened (not the db, which the caller owns). */
export function closeActivityDeps(deps: ActivityDeps): void {
  deps.mailer.close();
}
