import type { z } from 'zod';
import type { Config } from '../../config';
import { BankConnection } from '../../db/models';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import { BankAuthError, BankUnavailableError } from '../../providers/bank-errors';
import { keepBankSyncScheduled } from '../../temporal/scheduled-bank-sync/calls';
import { requestSync } from '../../temporal/sync-connection/calls';
import { decrypt, encrypt, keyringOf } from '../crypto/encryption';
import { recordConsentExpiry } from './consent';
import { upsertProviderAccounts } from './provider-accounts';
import { readProvider } from './provider-snapshot';
import type { BankConnectionDto, linkSessionBody, LinkSession, reconnectCompleteBody } from './schema';
import { getConnection, type ConnectionDeps } from './service';
import { markReconnected } from './status';

/**
 * Where bank-a sends an item's webhooks, set on every Link session: production uses our
 * public address; the sandbox its own base address when one is configured, with the same path.
 */
export function bankAWebhookUrl(config: Pick<Config, 'BANK_A_ENVIRONMENT' | 'BANK_A_SANDBOX_WEBHOOK_BASE_URL' | 'PUBLIC_URL' | 'PORT'>) {
  const base =
    (config.BANK_A_ENVIRONMENT === 'sandbox' ? config.BANK_A_SANDBOX_WEBHOOK_BASE_URL : undefined) ??
    config.PUBLIC_URL ??
    `http://localhost:${config.PORT}`;
  return `${base.replace(/\/+$/, '')}/webhook/bank-a`;
}

const unavailable = (provider: string, err: unknown) => {
  if (err instanceof BankUnavailableError || err instanceof BankAuthError)
    return new AppError(502, 'Bad Gateway', `${provider} did not open a link session; try again`);
  return err;
};

/** A link session for a new connection: bank-a's Link token, or bank-b's Connect enrollment URL. */
export async function createLinkSession(deps: ConnectionDeps, teamId: string, body: z.infer<typeof linkSessionBody>): Promise<LinkSession> {
  try {
    if (body.provider === 'bank-a') {
      const link = await deps.bankA.createLinkToken({ clientUserId: teamId, webhook: bankAWebhookUrl(deps.config) });
      return bankALinkSession(link, null);
    }
    return bankBLinkSession(await deps.bankB.createConnectSession(), null);
  } catch (err) {
    throw unavailable(body.provider, err);
  }
}

const bankALinkSession = (link: { link_token: string; expiration: string }, connectionId: string | null): LinkSession => ({
  provider: 'bank-a',
  mode: connectionId ? 'update' : 'create',
  linkToken: link.link_token,
  enrollmentUrl: null,
  sessionId: null,
  expiresAt: new Date(link.expiration).toISOString(),
  connectionId,
});

const bankBLinkSession = (session: { id: string; url: string; expires_at: string }, connectionId: string | null): LinkSession => ({
  provider: 'bank-b',
  mode: connectionId ? 'update' : 'create',
  linkToken: null,
  enrollmentUrl: session.url,
  sessionId: session.id,
  expiresAt: new Date(session.expires_at).toISOString(),
  connectionId,
});

/** The team's connection, or 404 (another team's id included). */
async function teamConnection(deps: ConnectionDeps, teamId: string, id: string) {
  const conn = await BankConnection.query(deps.db).findOne({ teamId, id });
  if (!conn) throw notFound(`Bank connection ${id} not found`);
  return conn;
}

/**
 * A link session in update mode for a connection the bank disconnected: bank-a's Link with the
 * item's access token (the user logs in again, the token stays), bank-b's Connect for the enrollment.
 */
export async function createReconnectSession(deps: ConnectionDeps, teamId: string, id: string): Promise<LinkSession> {
  const conn = await teamConnection(deps, teamId, id);
  if (conn.status !== 'disconnected') throw conflict('The connection is connected: there is nothing to reconnect');
  try {
    if (conn.provider === 'bank-a') {
      const link = await deps.bankA.createLinkToken({
        clientUserId: teamId,
        webhook: bankAWebhookUrl(deps.config),
        accessToken: decrypt(conn.accessTokenEncrypted ?? '', keyringOf(deps.config)),
      });
      return bankALinkSession(link, conn.id);
    }
    return bankBLinkSession(await deps.bankB.createConnectSession(conn.referenceId), conn.id);
  } catch (err) {
    throw unavailable(conn.provider, err);
  }
}

/**
 * The user finished the provider's update flow: the connection's token is checked by reading its
 * accounts (still refused: 409, nothing changes), then it is `connected` again, the team is told it
 * was repaired, its schedule resumes, its consent timer follows the renewed expiry and a sync catches
 * up. Completing twice is harmless: the second finds it connected and only syncs.
 */
export async function completeReconnect(
  deps: ConnectionDeps,
  teamId: string,
  id: string,
  body: z.infer<typeof reconnectCompleteBody>,
): Promise<BankConnectionDto> {
  const conn = await teamConnection(deps, teamId, id);
  if (body.accessToken && conn.provider !== 'bank-b')
    throw badRequest('bank-a keeps its access token through a reconnect', [{ field: 'accessToken', message: 'only for bank-b' }]);
  const token = body.accessToken ?? decrypt(conn.accessTokenEncrypted ?? '', keyringOf(deps.config));
  const snapshot = await readProvider(deps, conn.provider, token, 'accessToken').catch((err: unknown) => {
    // The stored token still refused: the user has not finished the provider's flow (not a bad request of theirs).
    if (err instanceof AppError && err.status === 400 && !body.accessToken)
      throw conflict(`${conn.provider} still refuses the connection: finish the reconnect in its flow first`);
    throw err;
  });
  if (snapshot.referenceId !== null && snapshot.referenceId !== conn.referenceId)
    throw badRequest('The access token belongs to another enrollment', [{ field: 'accessToken', message: 'not this connection' }]);

  await deps.db.transaction(async (trx) => {
    await BankConnection.query(trx)
      .findById(conn.id)
      .patch({
        ...(body.accessToken ? { accessTokenEncrypted: encrypt(body.accessToken, keyringOf(deps.config)) } : {}),
        ...(snapshot.institution ? { institutionId: snapshot.institution.id, institutionName: snapshot.institution.name } : {}),
      });
    await upsertProviderAccounts(trx, conn, snapshot.accounts);
  });
  await markReconnected(deps.db, conn);
  const about = { institutionName: snapshot.institution?.name ?? conn.institutionName, provider: conn.provider };
  await keepBankSyncScheduled(deps.temporal, { connectionId: conn.id, teamId }, about, deps.config.BANK_SYNC_INTERVAL).catch(
    (err: unknown) => {
      deps.logger.error({ err, connectionId: conn.id }, 'could not resume the regular sync; the next worker start does');
    },
  );
  await recordConsentExpiry(deps, conn, snapshot.consentExpiresAt, snapshot.readAt);
  await requestSync(deps.temporal, { connectionId: conn.id, teamId, manualSync: false }, about);
  return getConnection(deps.db, teamId, conn.id);
}
