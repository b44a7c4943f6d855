import { bankSyncScheduleId } from '../../shared/temporal/scheduled-bank-sync/contract';
import { bankConsentWorkflowId, consentStage } from '../../shared/temporal/bank-consent/contract';
import { applyConnectionEvent } from '../../shared/domain/bank-connections/webhook-effects';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { signBankB, startBankBFake, type BankBFake } from '../fakes/bank-b';
import { sendJson, statusAndBody } from '../support/api';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

// Connection lifecycle: link → exchange → sync → webhooks → disconnect → reconnect, and consent expiry.
// Schedules run every 2 s here, and the consent notice comes 3 s before the expiry.
const B_SECRET = 'bank-b-link-secret';
let bankA: BankAFake;
let bankB: BankBFake;
beforeAll(async () => {
  bankA = await startBankAFake();
  bankB = await startBankBFake({ applicationId: 'app_link_test' });
});
afterAll(async () => {
  await bankA?.close();
  await bankB?.close();
});
const stack = withStack('bank-link', () => ({
  BANK_A_API_URL: bankA.url,
  BANK_B_API_URL: bankB.url,
  BANK_B_APPLICATION_ID: 'app_link_test',
  BANK_B_WEBHOOK_SECRETS: B_SECRET,
  PUBLIC_URL: 'https://api.finops.test',
  BANK_SYNC_INTERVAL: '2s',
  BANK_CONSENT_NOTICE_LEAD: '3s',
}));

const call = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);
const count = async (table: string, where: Record<string, unknown> = {}) =>
  Number(
    (
      await stack.tdb
        .db(table)
        .where({ teamId: stack.acme.team.id, ...where })
        .count('* as n')
        .first()
    )?.n,
  );
const postBankA = async (payload: Record<string, unknown>) => {
  const signed = await bankA.sign({ environment: 'sandbox', ...payload });
  expect((await stack.api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw })).status).toBe(200);
};
const postBankB = async (type: string, payload: Record<string, unknown>) => {
  const signed = signBankB({ id: `wh_${Math.random().toString(36).slice(2)}`, type, payload, timestamp: new Date().toISOString() }, [
    B_SECRET,
  ]);
  expect((await stack.api.fetch('/webhook/bank-b', { method: 'POST', headers: signed.headers, body: signed.raw })).status).toBe(200);
};

describe('bank connection lifecycle', () => {
  it('bank-a: link → exchange → initial sync → webhook update → disconnected → reconnect → connected and synced', async () => {
    // Link: bank-a gets a Link session with our webhook URL set.
    const link = await call('POST', '/bank-connections/link', { provider: 'bank-a' });
    expect(link.status).toBe(201);
    expect(link.body.data).toMatchObject({ provider: 'bank-a', mode: 'create', connectionId: null, enrollmentUrl: null });
    expect(Date.parse(link.body.data.expiresAt)).toBeGreaterThan(Date.now());
    expect(bankA.linkSessions()).toContainEqual({
      webhook: 'https://api.finops.test/webhook/bank-a',
      clientUserId: stack.acme.team.id,
      itemId: null,
    });

    // The user finishes Link; the client exchanges the public token.
    const { publicToken, itemId } = bankA.completeLink(link.body.data.linkToken);
    bankA.addTransactions(itemId, 5);
    const exchanged = await call('POST', '/bank-connections/exchange', { provider: 'bank-a', publicToken });
    expect(exchanged.status).toBe(201);
    const connection = exchanged.body.data;
    expect(connection).toMatchObject({
      provider: 'bank-a',
      referenceId: itemId,
      status: 'connected',
      institution: { id: 'ins_1', name: 'First Platypus Bank' },
      error: null,
      lastError: null,
      expiresAt: null,
    });
    expect(connection.accounts).toHaveLength(1); // read at exchange time, before any sync
    const stored = await stack.tdb.db('bank_connections').where({ id: connection.id }).first();
    expect(stored.accessTokenEncrypted).not.toContain('access-sandbox'); // encrypted at rest
    await eventually(async () => (await count('transactions')) === 5, 30_000, 'the initial sync');

    // A webhook-driven update.
    bankA.addTransactions(itemId, 2, 100);
    await postBankA({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: itemId, new_transactions: 2 });
    await eventually(async () => (await count('transactions')) === 7, 30_000, 'the webhook sync');

    // The bank breaks the login: disconnected, and the schedule pauses itself.
    bankA.requireLogin(itemId);
    await postBankA({
      webhook_type: 'ITEM',
      webhook_code: 'ERROR',
      item_id: itemId,
      error: { error_code: 'ITEM_LOGIN_REQUIRED', error_message: 'login required', display_message: 'Log in again' },
    });
    expect((await call('GET', `/bank-connections/${connection.id}`)).body.data).toMatchObject({
      status: 'disconnected',
      error: { code: 'ITEM_LOGIN_REQUIRED' },
      lastError: { code: 'ITEM_LOGIN_REQUIRED', message: 'Log in again' },
    });
    const schedule = (await stack.api.deps.temporal.client()).schedule.getHandle(bankSyncScheduleId(connection.id));
    await eventually(async () => (await schedule.describe()).state.paused, 30_000, 'the schedule to pause');

    // Another team cannot reconnect it; completing before the user has logged in changes nothing.
    const other = await createTeamAndOwner(stack.tdb.db, 'Other');
    expect((await call('POST', `/bank-connections/${connection.id}/reconnect`, undefined, other.sessionToken)).status).toBe(404);
    expect((await call('POST', `/bank-connections/${connection.id}/reconnect/complete`, {}, other.sessionToken)).status).toBe(404);
    expect((await call('POST', `/bank-connections/${connection.id}/reconnect/complete`, {})).status).toBe(409);
    expect((await call('GET', `/bank-connections/${connection.id}`)).body.data.status).toBe('disconnected');

    // Reconnect: Link in update mode for this item (its access token), then completion.
    const again = await call('POST', `/bank-connections/${connection.id}/reconnect`);
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ provider: 'bank-a', mode: 'update', connectionId: connection.id });
    expect(bankA.linkSessions().at(-1)).toMatchObject({ itemId, webhook: 'https://api.finops.test/webhook/bank-a' });
    expect(bankA.completeLink(again.body.data.linkToken).publicToken).toBeNull();
    bankA.addTransactions(itemId, 1, 200);
    const repaired = await call('POST', `/bank-connections/${connection.id}/reconnect/complete`, {});
    expect(repaired.status).toBe(200);
    expect(repaired.body.data).toMatchObject({
      status: 'connected',
      error: null,
      lastError: { code: 'ITEM_LOGIN_REQUIRED' }, // kept after the repair
    });
    await eventually(async () => (await count('transactions')) === 8, 30_000, 'the catch-up sync');
    expect((await schedule.describe()).state.paused).toBe(false);
    expect(await count('notifications', { type: 'bank_connection_reconnected' })).toBe(1);
    expect(await count('notifications', { type: 'bank_connection_disconnected' })).toBe(1);

    // A connected connection has nothing to reconnect.
    expect((await call('POST', `/bank-connections/${connection.id}/reconnect`)).status).toBe(409);
  }, 120_000);

  it('refuses a bad public token or access token with a 400 and creates nothing', async () => {
    const before = { connections: await count('bank_connections'), accounts: await count('bank_accounts') };
    const bad = await call('POST', '/bank-connections/exchange', { provider: 'bank-a', publicToken: 'public-sandbox-nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'publicToken', message: 'invalid or expired' }]);
    const badB = await call('POST', '/bank-connections/exchange', { provider: 'bank-b', accessToken: 'token_nope', enrollmentId: 'enr_x' });
    expect(badB.status).toBe(400);
    expect(badB.body.details).toEqual([{ field: 'accessToken', message: 'refused by the provider' }]);
    const e = bankB.addEnrollment();
    const mismatch = await call('POST', '/bank-connections/exchange', {
      provider: 'bank-b',
      accessToken: e.accessToken,
      enrollmentId: 'enr_someone_else',
    });
    expect(mismatch.status).toBe(400);
    const noProvider = await call('POST', '/bank-connections/link', { provider: 'bank-z' });
    expect(noProvider.status).toBe(400);
    expect({ connections: await count('bank_connections'), accounts: await count('bank_accounts') }).toEqual(before);
  });

  it('bank-b over tRPC: Connect session → exchange → disconnected webhook → reconnect with the new token', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const session = await trpc.bankConnections.link.mutate({ provider: 'bank-b' });
    expect(session).toMatchObject({ provider: 'bank-b', mode: 'create', linkToken: null });
    expect(session.enrollmentUrl).toMatch(/^https:\/\/connect\.bank-b\.test\/s\/cs_/);
    expect(bankB.openSessions()).toContainEqual(
      expect.objectContaining({ id: session.sessionId, environment: 'sandbox', enrollmentId: null }),
    );

    const done = bankB.completeSession(session.sessionId!);
    // Three pages (500, 500, 2): the sync follows from_id page after page.
    bankB.addTransactions(done.enrollment, 1002);
    const connection = await trpc.bankConnections.exchange.mutate({
      provider: 'bank-b',
      accessToken: done.accessToken,
      enrollmentId: done.enrollmentId,
    });
    expect(connection).toMatchObject({ referenceId: done.enrollmentId, status: 'connected', institution: { name: 'Chase' } });
    expect(connection.accounts).toHaveLength(1);
    const txs = () => count('transactions', { bankAccountId: connection.accounts[0].id });
    await eventually(async () => (await txs()) === 1002, 30_000, 'the initial bank-b sync');

    bankB.disconnect(done.enrollment);
    await postBankB('enrollment.disconnected', { enrollment_id: done.enrollmentId, reason: 'disconnected.credentials_invalid' });
    expect((await trpc.bankConnections.getById.query({ id: connection.id })).status).toBe('disconnected');

    const repair = await trpc.bankConnections.reconnect.mutate({ id: connection.id });
    expect(repair).toMatchObject({ provider: 'bank-b', mode: 'update', connectionId: connection.id });
    expect(bankB.openSessions()).toContainEqual(expect.objectContaining({ id: repair.sessionId, enrollmentId: done.enrollmentId }));
    const repaired = bankB.completeSession(repair.sessionId!);
    expect(repaired.accessToken).not.toBe(done.accessToken);
    // The old token no longer works; a token of another enrollment is refused.
    const stranger = bankB.addEnrollment();
    expect(
      (await trpcError(trpc.bankConnections.completeReconnect.mutate({ id: connection.id, data: { accessToken: stranger.accessToken } })))
        .httpStatus,
    ).toBe(400);
    bankB.addTransactions(done.enrollment, 2);
    const back = await trpc.bankConnections.completeReconnect.mutate({ id: connection.id, data: { accessToken: repaired.accessToken } });
    expect(back.status).toBe('connected');
    await eventually(async () => (await txs()) === 1004, 30_000, 'the sync after the reconnect');
  }, 90_000);

  it('tells the team once ahead of the consent expiry and once on it', async () => {
    const expiresAt = new Date(Date.now() + 7000);
    bankA.setNextConsentExpiry(expiresAt.toISOString());
    try {
      const link = await call('POST', '/bank-connections/link', { provider: 'bank-a' });
      const { publicToken } = bankA.completeLink(link.body.data.linkToken);
      const connection = (await call('POST', '/bank-connections/exchange', { provider: 'bank-a', publicToken })).body.data;
      expect(connection.expiresAt).toBe(expiresAt.toISOString());
      const notices = () =>
        stack.tdb
          .db('notifications')
          .where({ teamId: stack.acme.team.id })
          .whereIn('type', ['bank_connection_consent_expiring', 'bank_connection_consent_expired'])
          .whereRaw(`metadata->>'connectionId' = ?`, [connection.id])
          .orderBy('createdAt');
      // 3 s ahead of the expiry: the warning, and not yet the expiry notice.
      await eventually(async () => (await notices()).length === 1, 15_000, 'the warning');
      expect(Date.now()).toBeLessThan(expiresAt.getTime());
      const handle = stack.worker.client.workflow.getHandle(bankConsentWorkflowId(connection.id));
      const result = await handle.result();
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
      expect(result).toEqual({ stage: 'expired', expiresAt: expiresAt.toISOString(), notices: ['expiring', 'expired'] });
      const sent = await notices();
      expect(sent.map((n: { type: string }) => n.type)).toEqual(['bank_connection_consent_expiring', 'bank_connection_consent_expired']);
      expect(sent[0].metadata).toMatchObject({ connectionId: connection.id, expiresAt: expiresAt.toISOString() });
    } finally {
      bankA.setNextConsentExpiry(null);
    }
  }, 60_000);

  it('HISTORICAL_UPDATE: the domain syncs a connection under one day old and logs and ignores an older one', async () => {
    const link = await call('POST', '/bank-connections/link', { provider: 'bank-a' });
    const { publicToken, itemId } = bankA.completeLink(link.body.data.linkToken);
    const connection = (await call('POST', '/bank-connections/exchange', { provider: 'bank-a', publicToken })).body.data;
    const logged: unknown[][] = [];
    const deps = {
      db: stack.tdb.db,
      temporal: stack.api.deps.temporal,
      config: stack.api.deps.config,
      logger: { info: (...args: unknown[]) => void logged.push(args), error: (...args: unknown[]) => void logged.push(args) },
    };
    const ref = { provider: 'bank-a' as const, referenceId: itemId };

    expect(await applyConnectionEvent(deps, ref, { kind: 'initial-history' })).toEqual({
      outcome: 'processed',
      teamId: stack.acme.team.id,
      workflowId: `sync-connection:${connection.id}`,
    });
    expect(logged).toEqual([]);

    await stack.tdb
      .db('bank_connections')
      .where({ id: connection.id })
      .update({ createdAt: new Date(Date.now() - 86_400_000 - 60_000) });
    const handle = (await stack.api.deps.temporal.client()).workflow.getHandle(`sync-connection:${connection.id}`);
    await handle.result();
    const synced = await handle.describe();
    expect(await applyConnectionEvent(deps, ref, { kind: 'initial-history' })).toEqual({ outcome: 'ignored', teamId: stack.acme.team.id });
    // Ignored means no run: none started (the id still names the finished one) and none signalled (its history unchanged).
    const after = await handle.describe();
    expect([after.runId, after.status.name, after.historyLength]).toEqual([synced.runId, 'COMPLETED', synced.historyLength]);
    expect(logged).toEqual([
      [
        expect.objectContaining({ connectionId: connection.id }),
        'historical update ignored: the connection was created more than a day ago',
      ],
    ]);
  });

  it('moves the consent timer when a sync finds the consent renewed at the bank (no notice for the old expiry), and ends it with the connection', async () => {
    const first = new Date(Date.now() + 8000);
    bankA.setNextConsentExpiry(first.toISOString());
    let itemId: string;
    let connection: { id: string };
    try {
      const link = await call('POST', '/bank-connections/link', { provider: 'bank-a' });
      const done = bankA.completeLink(link.body.data.linkToken);
      itemId = done.itemId;
      connection = (await call('POST', '/bank-connections/exchange', { provider: 'bank-a', publicToken: done.publicToken })).body.data;
    } finally {
      bankA.setNextConsentExpiry(null);
    }
    const renewed = new Date(Date.now() + 10 * 60_000);
    bankA.setConsentExpiry(itemId, renewed.toISOString());
    expect((await call('POST', `/bank-connections/${connection.id}/sync`)).status).toBe(202);
    await eventually(
      async () => (await call('GET', `/bank-connections/${connection.id}`)).body.data.expiresAt === renewed.toISOString(),
      15_000,
      'the renewed expiry',
    );
    // Past the old expiry: nothing was said about it, and the timer waits for the new one.
    await new Promise((r) => setTimeout(r, Math.max(0, first.getTime() + 1500 - Date.now())));
    const notices = await stack.tdb
      .db('notifications')
      .where({ teamId: stack.acme.team.id })
      .whereRaw(`metadata->>'connectionId' = ?`, [connection.id]);
    expect(notices).toEqual([]);
    const handle = stack.worker.client.workflow.getHandle(bankConsentWorkflowId(connection.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await handle.query(consentStage)).toBe('waiting');
    // Deleting the connection ends its timer without a notice.
    expect((await call('DELETE', `/bank-connections/${connection.id}`)).status).toBe(204);
    expect(await handle.result()).toEqual({ stage: 'cleared', expiresAt: null, notices: [] });
  }, 60_000);

  it('records the expiry a PENDING_EXPIRATION webhook announces and starts the consent timer for it', async () => {
    const link = await call('POST', '/bank-connections/link', { provider: 'bank-a' });
    const { publicToken, itemId } = bankA.completeLink(link.body.data.linkToken);
    const connection = (await call('POST', '/bank-connections/exchange', { provider: 'bank-a', publicToken })).body.data;
    expect(connection.expiresAt).toBeNull();
    const announced = new Date(Date.now() + 30 * 86_400_000);
    announced.setMilliseconds(0);
    // The bank reports the expiry it announces on every later read too: the initial sync, racing this
    // webhook, must find the same date rather than the "none" it had at link time.
    bankA.setConsentExpiry(itemId, announced.toISOString());
    await postBankA({
      webhook_type: 'ITEM',
      webhook_code: 'PENDING_EXPIRATION',
      item_id: itemId,
      consent_expiration_time: announced.toISOString(),
    });
    expect((await call('GET', `/bank-connections/${connection.id}`)).body.data.expiresAt).toBe(announced.toISOString());
    const handle = stack.worker.client.workflow.getHandle(bankConsentWorkflowId(connection.id));
    await eventually(async () => (await handle.query(consentStage).catch(() => null)) === 'waiting', 15_000, 'the consent timer');
    expect(await stack.tdb.db('webhook_events').where({ provider: 'bank-a', eventType: 'ITEM.PENDING_EXPIRATION' }).first()).toMatchObject({
      outcome: 'processed',
    });
    expect((await call('DELETE', `/bank-connections/${connection.id}`)).status).toBe(204);
  }, 60_000);
});
