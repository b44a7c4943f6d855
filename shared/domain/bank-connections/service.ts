import type { z } from 'zod';
import type { Config } from '../../config';
import { isUniqueViolation } from '../../db/constraint-errors';
import type { Db } from '../../db/knex';
import { BankConnection } from '../../db/models';
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
import { accountDto } from '../bank-accounts/service';
import { encrypt, keyringOf } from '../crypto/encryption';
import { recordConsentExpiry } from './consent';
import { upsertProviderAccounts } from './provider-accounts';
import { readProvider } from './provider-snapshot';
import type { BankConnectionDto, createBankConnectionBody } from './schema';
import { emitEvent } from '../webhook-endpoints/events';

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
        accessTokenEncrypted: encrypt(accessToken, keyringOf(deps.config)),
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
  const about = { institutionName: snapshot.institution?.name ?? null, provider: body.provider };
  await requestSync(deps.temporal, { connectionId: id, teamId, manualSync: false }, about).catch((err: unknown) => {
    deps.logger.error({ err, connectionId: id }, 'could not start the initial sync; it will run on the next webhook or manual sync');
  });
  await keepBankSyncScheduled(deps.temporal, { connectionId: id, teamId }, about, deps.config.BANK_SYNC_INTERVAL).catch((err: unknown) => {
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
  const row = await BankConnection.query(deps.db).findOne({ teamId, id }).select('status', 'provider', 'institutionName');
  if (!row) throw notFound(`Bank connection ${id} not found`);
  if (row.status === 'disconnected') throw conflict('The connection is disconnected: reconnect it before syncing');
  const workflowId = await requestSync(deps.temporal, { connectionId: id, teamId, manualSync: true }, row);
  return { workflowId, status: 'sync_requested' as const };
}
