import type { Config } from '../shared/config';
import type { Db } from '../shared/db/knex';
import { createMailer, type Mailer } from '../shared/providers/mail';

/** What activities need from the outside world; the worker builds it once from the config. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
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
    ...overrides,
  };
}

/** Releases what createActivityDeps opened (not the db, which the caller owns). */
export function closeActivityDeps(deps: ActivityDeps): void {
  deps.mailer.close();
}
