import type { Config } from '../shared/config';
import type { Db } from '../shared/db/knex';
import type { Mailer } from '../shared/providers/mail';

/** What activities need from the outside world; the worker builds it once from the config. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
}
