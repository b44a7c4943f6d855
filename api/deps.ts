import type { Config } from '../shared/config';
import type { Db } from '../shared/db/knex';
import type { Logger } from '../shared/logger';
import type { TemporalGateway } from '../shared/temporal/client';

/** Everything the gateway talks to; built once in main.ts (or by a test) and handed to createApp. */
export interface ApiDeps {
  config: Config;
  db: Db;
  temporal: TemporalGateway;
  logger: Logger;
}
