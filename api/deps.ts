import type { Config } from '../shared/config';
import type { Db } from '../shared/db/knex';
import type { Logger } from '../shared/logger';
import { createBankAClient, type BankAClient } from '../shared/providers/bank-a';
import { createStorage, type Storage } from '../shared/providers/storage';
import type { TemporalGateway } from '../shared/temporal/client';

/** Everything the gateway talks to; built once by createApiDeps (main.ts, or a test) and handed to createApp. */
export interface ApiDeps {
  config: Config;
  db: Db;
  temporal: TemporalGateway;
  logger: Logger;
  /** bank-a: public-token exchange on connection create, webhook verification keys. */
  bankA: BankAClient;
  /** Stored documents (inbox downloads). */
  storage: Storage;
}

/** The one place ApiDeps is assembled; tests pass overrides to swap a piece. */
export function createApiDeps(base: Pick<ApiDeps, 'config' | 'db' | 'temporal' | 'logger'>, overrides: Partial<ApiDeps> = {}): ApiDeps {
  const { config } = base;
  return {
    ...base,
    bankA: createBankAClient({ baseUrl: config.BANK_A_API_URL, clientId: config.BANK_A_CLIENT_ID, secret: config.BANK_A_SECRET }),
    storage: createStorage(config),
    ...overrides,
  };
}
