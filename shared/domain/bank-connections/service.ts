import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { AppError, conflict, notFound } from '../../errors';
import type { Logger } from '../../logger';
import type { BankAClient } from '../../providers/bank-a';
import { BankAuthError, BankUnavailableError } from '../../providers/bank-errors';
import type { TemporalGateway } from '../../temporal/client';
import { encrypt } from '../crypto/encryption';
import type { BankAccountDto, BankConnectionDto, createBankConnectionBody, updateBankAccountBody } from './schema';
import { requestSync } from './sync';

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export const accountDto = (a: any): BankAccountDto => ({
  id: a.id,
  connectionId: a.bankConnectionId,
  name: a.name,
  currency: a.currency,
  type: a.type,
  subtype: a.subtype,
  mask: a.mask,
  balance: a.balance,
  availableBalance: a.availableBalance,
  creditLimit: a.creditLimit,
  enabled: a.enabled,
  manual: a.manual,
  updatedAt: iso(a.updatedAt)!,
});

async function withAccounts(db: Db, teamId: string, rows: any[]): Promise<BankConnectionDto[]> {
  const accounts = rows.length ? await db('bank_accounts').where({ teamId }).whereIn('bankConnectionId', rows.map((r) => r.id)).orderBy('name') : [];
  return rows.map((c) => ({
    id: c.id,
    provider: c.provider,
    referenceId: c.referenceId,
    status: c.status,
    institution: { id: c.institutionId, name: c.institutionName },
    error: c.errorCode || c.errorMessage ? { code: c.errorCode, message: c.errorMessage } : null,
    lastSyncedAt: iso(c.lastSyncedAt),
    createdAt: iso(c.createdAt)!,
    accounts: accounts.filter((a: any) => a.bankConnectionId === c.id).map(accountDto),
  }));
}

export async function listConnections(db: Db, teamId: string) {
  return withAccounts(db, teamId, await db('bank_connections').where({ teamId }).orderBy('createdAt', 'desc'));
}

export async function getConnection(db: Db, teamId: string, id: string) {
  const row = await db('bank_connections').where({ teamId, id }).first();
  if (!row) throw notFound(`Bank connection ${id} not found`);
  return (await withAccounts(db, teamId, [row]))[0];
}

export interface ConnectionDeps {
  db: Db;
  config: Config;
  temporal: TemporalGateway;
  bankA: BankAClient;
  logger: Logger;
}

/**
 * Links a provider: bank-a's public token is exchanged here (the one provider call in a request,
 * since the connection cannot exist without it); the access token is stored encrypted; the new
 * connection starts `connected` and its first sync is requested.
 */
export async function createConnection(deps: ConnectionDeps, teamId: string, body: z.infer<typeof createBankConnectionBody>) {
  let accessToken: string;
  let referenceId: string;
  if (body.provider === 'bank-a') {
    try {
      const exchanged = await deps.bankA.exchangePublicToken(body.publicToken);
      accessToken = exchanged.access_token;
      referenceId = exchanged.item_id;
    } catch (err) {
      if (err instanceof BankAuthError) throw new AppError(400, 'Bad Request', `bank-a refused the public token: ${err.code}`, [{ field: 'publicToken', message: 'invalid or expired' }]);
      if (err instanceof BankUnavailableError) throw new AppError(502, 'Bad Gateway', 'bank-a is unavailable; try again');
      throw err;
    }
  } else {
    accessToken = body.accessToken;
    referenceId = body.enrollmentId;
  }
  let row: any;
  try {
    [row] = await deps.db('bank_connections')
      .insert({ teamId, provider: body.provider, referenceId, accessTokenEncrypted: encrypt(accessToken, deps.config.ENCRYPTION_KEY), status: 'connected' })
      .returning('*');
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(`This ${body.provider} connection already exists`);
    throw err;
  }
  await requestSync(deps.temporal, { connectionId: row.id, teamId, manualSync: false }).catch((err) =>
    deps.logger.error({ err, connectionId: row.id }, 'could not start the initial sync; it will run on the next webhook or manual sync'),
  );
  return (await withAccounts(deps.db, teamId, [row]))[0];
}

/** Deleting stops future syncs: webhooks no longer find it and a running sync skips it. Transactions stay. */
export async function deleteConnection(db: Db, teamId: string, id: string) {
  const n = await db('bank_connections').where({ teamId, id }).delete();
  if (!n) throw notFound(`Bank connection ${id} not found`);
}

export async function manualSync(deps: Pick<ConnectionDeps, 'db' | 'temporal'>, teamId: string, id: string) {
  const row = await deps.db('bank_connections').where({ teamId, id }).first();
  if (!row) throw notFound(`Bank connection ${id} not found`);
  if (row.status === 'disconnected') throw conflict('The connection is disconnected: reconnect it before syncing');
  const workflowId = await requestSync(deps.temporal, { connectionId: id, teamId, manualSync: true });
  return { workflowId, status: 'sync_requested' as const };
}

export async function listAccounts(db: Db, teamId: string) {
  return (await db('bank_accounts').where({ teamId }).orderBy('name')).map(accountDto);
}

export async function getAccount(db: Db, teamId: string, id: string) {
  const row = await db('bank_accounts').where({ teamId, id }).first();
  if (!row) throw notFound(`Bank account ${id} not found`);
  return accountDto(row);
}

export async function updateAccount(db: Db, teamId: string, id: string, body: z.infer<typeof updateBankAccountBody>) {
  const [row] = await db('bank_accounts').where({ teamId, id }).update({ ...body, updatedAt: new Date() }).returning('*');
  if (!row) throw notFound(`Bank account ${id} not found`);
  return accountDto(row);
}
