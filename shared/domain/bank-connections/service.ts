import type { z } from 'zod';
import type { Config } from '../../config';
import { isUniqueViolation } from '../../db/constraint-errors';
import type { Db } from '../../db/knex';
import { BankAccount, BankConnection } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import type { Logger } from '../../logger';
import type { BankAClient } from '../../providers/bank-a';
import type { BankBClient } from '../../providers/bank-b';
import { BankAuthError, BankUnavailableError } from '../../providers/bank-errors';
import type { TemporalGateway } from '../../temporal/client';
import { keepBankSyncScheduled, removeBankSyncSchedule } from '../../temporal/scheduled-bank-sync/calls';
import { requestSync } from '../../temporal/sync-connection/calls';
import { stopConsentTimer } from '../../temporal/bank-consent/calls';
import { encrypt } from '../crypto/encryption';
import { recordConsentExpiry } from './consent';
import { upsertProviderAccounts } from './provider-accounts';
import { readProvider } from './provider-snapshot';
import type { BankAccountDto, BankConnectionDto, createBankAccountBody, createBankConnectionBody, updateBankAccountBody } from './schema';
import { emitEvent } from '../webhook-endpoints/events';

const accountDto = (a: BankAccount): BankAccountDto => ({
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
  openingBalance: a.openingBalance,
  openingBalanceDate: a.openingBalanceDate,
  updatedAt: toIso(a.updatedAt),
});

const connectionDto = (c: BankConnection): BankConnectionDto => ({
  id: c.id,
  provider: c.provider,
  referenceId: c.referenceId,
  status: c.status,
  institution: { id: c.institutionId, name: c.institutionName },
  error: c.errorCode || c.errorMessage ? { code: c.errorCode, message: c.errorMessage } : null,
  lastError: c.lastErrorAt ? { code: c.lastErrorCode, message: c.lastErrorMessage, at: toIso(c.lastErrorAt) } : null,
  expiresAt: toIsoOrNull(c.consentExpiresAt),
  lastSyncedAt: toIsoOrNull(c.lastSyncedAt),
  createdAt: toIso(c.createdAt),
  accounts: (c.accounts ?? []).map(accountDto),
});

/** The team's connections with their accounts (by name), through the `accounts` relation. */
const connections = (db: Db, teamId: string) =>
  BankConnection.query(db)
    .where({ teamId })
    .withGraphFetched('accounts')
    .modifyGraph('accounts', (accounts) => {
      accounts.orderBy('name');
    });

export async function listConnections(db: Db, teamId: string): Promise<BankConnectionDto[]> {
  return (await connections(db, teamId).orderBy('createdAt', 'desc')).map(connectionDto);
}

export async function getConnection(db: Db, teamId: string, id: string): Promise<BankConnectionDto> {
  const row = await connections(db, teamId).findById(id);
  if (!row) throw notFound(`Bank connection ${id} not found`);
  return connectionDto(row);
}

export interface ConnectionDeps {
  db: Db;
  config: Config;
  temporal: TemporalGateway;
  bankA: BankAClient;
  bankB: BankBClient;
  logger: Logger;
}

/** bank-a's public token exchanged for its access token and item id; bank-b's come with the request. */
async function providerCredentials(
  bankA: BankAClient,
  body: z.infer<typeof createBankConnectionBody>,
): Promise<{ accessToken: string; referenceId: string }> {
  if (body.provider === 'bank-b') return { accessToken: body.accessToken, referenceId: body.enrollmentId };
  try {
    const exchanged = await bankA.exchangePublicToken(body.publicToken);
    return { accessToken: exchanged.access_token, referenceId: exchanged.item_id };
  } catch (err) {
    if (err instanceof BankAuthError)
      throw new AppError(400, 'Bad Request', `bank-a refused the public token: ${err.code}`, [
        { field: 'publicToken', message: 'invalid or expired' },
      ]);
    if (err instanceof BankUnavailableError) throw new AppError(502, 'Bad Gateway', 'bank-a is unavailable; try again');
    throw err;
  }
}

/**
 * Links a provider (`POST /bank-connections` and `/bank-connections/exchange`): bank-a's public token
 * is exchanged, then the provider's accounts are read with the access token (bank-b's token is
 * checked that way), so a bad token creates nothing. The connection is stored with its accounts, its
 * institution and its consent expiry, the token encrypted; it starts `connected`, its first sync is
 * requested, its regular sync scheduled and its consent timer started.
 */
export async function createConnection(
  deps: ConnectionDeps,
  teamId: string,
  body: z.infer<typeof createBankConnectionBody>,
): Promise<BankConnectionDto> {
  const { accessToken, referenceId } = await providerCredentials(deps.bankA, body);
  const snapshot = await readProvider(deps, body.provider, accessToken, 'accessToken');
  if (snapshot.referenceId !== null && snapshot.referenceId !== referenceId)
    throw badRequest('The access token belongs to another enrollment', [{ field: 'enrollmentId', message: 'does not match the token' }]);
  let id: string;
  try {
    id = await deps.db.transaction(async (trx) => {
      const row = await BankConnection.query(trx).insert({
        teamId,
        provider: body.provider,
        referenceId,
        accessTokenEncrypted: encrypt(accessToken, deps.config.ENCRYPTION_KEY),
        status: 'connected',
        institutionId: snapshot.institution?.id ?? null,
        institutionName: snapshot.institution?.name ?? null,
      });
      await upsertProviderAccounts(trx, { id: row.id, teamId }, snapshot.accounts);
      await emitEvent(trx, teamId, 'bank_connection.connected', {
        connectionId: row.id,
        provider: body.provider,
        institutionName: snapshot.institution?.name ?? null,
      });
      return row.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`This ${body.provider} connection already exists`);
    throw err;
  }
  await requestSync(deps.temporal, { connectionId: id, teamId, manualSync: false }).catch((err: unknown) => {
    deps.logger.error({ err, connectionId: id }, 'could not start the initial sync; it will run on the next webhook or manual sync');
  });
  await keepBankSyncScheduled(deps.temporal, { connectionId: id, teamId }, deps.config.BANK_SYNC_INTERVAL).catch((err: unknown) => {
    deps.logger.error({ err, connectionId: id }, 'could not schedule the regular sync; the next worker start creates it');
  });
  await recordConsentExpiry(deps, { id, teamId }, snapshot.consentExpiresAt, snapshot.readAt);
  return getConnection(deps.db, teamId, id);
}

/**
 * Deleting stops future syncs: webhooks no longer find it, a running sync skips it, and its schedule
 * goes (or, if Temporal cannot be reached now, removes itself at its next run). Transactions stay.
 */
export async function deleteConnection(
  deps: Pick<ConnectionDeps, 'db' | 'temporal' | 'logger'>,
  teamId: string,
  id: string,
): Promise<void> {
  const n = await BankConnection.query(deps.db).where({ teamId, id }).delete();
  if (!n) throw notFound(`Bank connection ${id} not found`);
  await removeBankSyncSchedule(deps.temporal, id).catch((err: unknown) => {
    deps.logger.error({ err, connectionId: id }, 'could not remove the sync schedule; its next run removes it');
  });
  await stopConsentTimer(deps.temporal, id).catch((err: unknown) => {
    deps.logger.error({ err, connectionId: id }, 'could not stop the consent timer; it finds the connection gone when it wakes');
  });
}

export async function manualSync(deps: Pick<ConnectionDeps, 'db' | 'temporal'>, teamId: string, id: string) {
  const row = await BankConnection.query(deps.db).findOne({ teamId, id }).select('status');
  if (!row) throw notFound(`Bank connection ${id} not found`);
  if (row.status === 'disconnected') throw conflict('The connection is disconnected: reconnect it before syncing');
  const workflowId = await requestSync(deps.temporal, { connectionId: id, teamId, manualSync: true });
  return { workflowId, status: 'sync_requested' as const };
}

/**
 * The team's accounts; a manual account's balance is computed here: its opening balance plus its
 * booked transactions since the opening date (one made before opening balances keeps its stored one).
 */
export function accountsWithBalances(db: Db, teamId: string) {
  return BankAccount.query(db)
    .where('bank_accounts.team_id', teamId)
    .select(
      'bank_accounts.*',
      db.raw(`case when bank_accounts.manual and bank_accounts.opening_balance is not null then bank_accounts.opening_balance + coalesce((
                 select sum(t.amount) from transactions t
                  where t.team_id = bank_accounts.team_id and t.bank_account_id = bank_accounts.id and t.status in ('posted', 'completed')
                    and (bank_accounts.opening_balance_date is null or t.date >= bank_accounts.opening_balance_date)), 0)
               else bank_accounts.balance end as balance`),
    );
}

export async function listAccounts(db: Db, teamId: string): Promise<BankAccountDto[]> {
  return (await accountsWithBalances(db, teamId).orderBy('name')).map(accountDto);
}

export async function getAccount(db: Db, teamId: string, id: string): Promise<BankAccountDto> {
  const row = (await accountsWithBalances(db, teamId).where('bank_accounts.id', id)).at(0);
  if (!row) throw notFound(`Bank account ${id} not found`);
  return accountDto(row);
}

/** A manual account (cash, a card without a feed): no connection, an opening balance. */
export async function createManualAccount(db: Db, teamId: string, body: z.infer<typeof createBankAccountBody>): Promise<BankAccountDto> {
  const row = await BankAccount.query(db).insert({
    teamId,
    name: body.name,
    currency: body.currency,
    type: body.type,
    manual: true,
    openingBalance: body.openingBalance,
    openingBalanceDate: body.openingBalanceDate ?? null,
  });
  return getAccount(db, teamId, row.id);
}

/** Only manual accounts can be deleted (a provider's come back with the next sync); their transactions stay, without an account. */
export async function deleteManualAccount(db: Db, teamId: string, id: string): Promise<void> {
  const row = await BankAccount.query(db).findOne({ teamId, id }).select('manual');
  if (!row) throw notFound(`Bank account ${id} not found`);
  if (!row.manual) throw conflict("A provider's account cannot be deleted; disable it instead, or delete its connection");
  await BankAccount.query(db).delete().where({ teamId, id });
}

/**
 * Renames, enables or disables any account; a manual account's opening balance and date can be
 * corrected too (its balance is computed from them on every read). A provider's account takes its
 * balance from the provider, so those two are refused for it (409, as deleting it is).
 */
export async function updateAccount(
  db: Db,
  teamId: string,
  id: string,
  body: z.infer<typeof updateBankAccountBody>,
): Promise<BankAccountDto> {
  const row = await BankAccount.query(db).findOne({ teamId, id }).select('manual');
  if (!row) throw notFound(`Bank account ${id} not found`);
  if (!row.manual && (body.openingBalance !== undefined || body.openingBalanceDate !== undefined))
    throw conflict("A provider's account has the provider's balance; only a manual account's opening balance can be set");
  await BankAccount.query(db)
    .where({ teamId, id })
    .patch({ ...body, updatedAt: new Date() });
  return getAccount(db, teamId, id);
}
