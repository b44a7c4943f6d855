import { generateKeyPair, SignJWT } from 'jose';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { signBankB, startBankBFake } from '../fakes/bank-b';
import { startTestApi, testConfig, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import type { UntypedJson } from '../support/untyped-json';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from '../support/worker';
import { ConnectionId, TeamId } from '../../shared/temporal/search-attribute-keys';
import { syncConnectionId, type SyncConnectionWorkflow } from '../../shared/temporal/sync-connection/contract';

let api: TestApi;
let worker: TestWorker;
let bankA: BankAFake;
let bankB: Awaited<ReturnType<typeof startBankBFake>>;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
let env: Record<string, string>;
const SECRETS = ['bankb-old-secret', 'bankb-new-secret'];
// beforeAll may fail part way: the teardown stops only what was started.
const started: { api?: TestApi; worker?: TestWorker; bankA?: BankAFake; bankB?: typeof bankB } = {};

const tdb = withTestDatabase({
  setUp: async () => {
    bankA = started.bankA = await startBankAFake();
    bankB = started.bankB = await startBankBFake();
    env = {
      BANK_A_API_URL: bankA.url,
      BANK_B_API_URL: bankB.url,
      BANK_B_WEBHOOK_SECRETS: SECRETS.join(','),
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue('banking'),
    };
    api = started.api = await startTestApi(tdb.db, { env });
    worker = started.worker = await startTestWorker(testConfig(env), tdb.db);
    acme = await createTeamAndOwner(tdb.db, 'Acme');
  },
  tearDown: async () => {
    await started.worker?.stop();
    await started.api?.stop();
    await started.bankA?.close();
    await started.bankB?.close();
  },
});

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const countTx = async (teamId: string) => Number((await tdb.db('transactions').where({ teamId }).count('* as n').first())!.n);

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function workflowDone(connectionId: string) {
  const handle = worker.client.workflow.getHandle<SyncConnectionWorkflow>(syncConnectionId(connectionId));
  return handle.result();
}

async function connectBankA(txCount: number) {
  const item = bankA.addItem();
  const initial = bankA.addTransactions(item.itemId, txCount);
  const res = await api.fetch('/bank-connections', {
    token: acme.sessionToken,
    ...json({ provider: 'bank-a', publicToken: item.publicToken }),
  });
  expect(res.status).toBe(201);
  const { data } = await res.json();
  await workflowDone(data.id);
  return { item, connection: data, initial };
}

const postBankA = async (payload: Record<string, unknown>, opts = {}) => {
  const signed = await bankA.sign({ environment: 'sandbox', ...payload }, opts);
  return api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw });
};

describe('bank connections', () => {
  it('connects bank-a: starts connected, stores the token encrypted, and the first sync brings accounts and transactions', async () => {
    const { item, connection } = await connectBankA(120);
    expect(connection).toMatchObject({ provider: 'bank-a', referenceId: item.itemId, status: 'connected' });
    expect(await countTx(acme.team.id)).toBe(120);
    const row = await tdb.db('bank_connections').where({ id: connection.id }).first();
    expect(row.accessTokenEncrypted).not.toContain(item.accessToken);
    const view = (await (await api.fetch(`/bank-connections/${connection.id}`, { token: acme.sessionToken })).json()).data;
    expect(view.institution.name).toBe('First Platypus Bank');
    expect(view.accounts).toHaveLength(1);
    expect(view.accounts[0]).toMatchObject({ balance: 1000, currency: 'EUR' });
    const tx = (await (await api.fetch('/transactions?pageSize=1', { token: acme.sessionToken })).json()).data[0];
    expect(tx.amount).toBeLessThan(0); // bank-a's positive "money out" is our expense
    const notice = await tdb.db('notifications').where({ teamId: acme.team.id, type: 'transactions_created' }).first();
    expect(notice.metadata).toMatchObject({ count: 120, connectionId: connection.id });
    const desc = await worker.client.workflow.getHandle(`sync-connection:${connection.id}`).describe();
    expect(desc.typedSearchAttributes.get(ConnectionId)).toBe(connection.id);
    expect(desc.typedSearchAttributes.get(TeamId)).toBe(acme.team.id);
  });

  it('refuses an invalid public token with 400 and stores nothing', async () => {
    const before = await tdb.db('bank_connections').count('* as n').first();
    const res = await api.fetch('/bank-connections', {
      token: acme.sessionToken,
      ...json({ provider: 'bank-a', publicToken: 'public-sandbox-nope' }),
    });
    expect(res.status).toBe(400);
    expect(await tdb.db('bank_connections').count('* as n').first()).toEqual(before);
  });
});

describe('banking over the typed tRPC client', () => {
  it('connects, reads, syncs and deletes a connection; lists, reads and updates its accounts', async () => {
    const trpc = trpcAs(api, acme.sessionToken);
    const e = bankB.addEnrollment({ ledger: '1234.50' });
    bankB.addTransactions(e, 3);
    const created = await trpc.bankConnections.create.mutate({
      provider: 'bank-b',
      accessToken: e.accessToken,
      enrollmentId: e.enrollmentId,
    });
    expect(created).toMatchObject({ provider: 'bank-b', referenceId: e.enrollmentId, status: 'connected', error: null });
    expect((await workflowDone(created.id)).added).toBe(3);

    const connection = await trpc.bankConnections.getById.query({ id: created.id });
    expect(connection).toMatchObject({ institution: { id: 'chase', name: 'Chase' }, lastSyncedAt: expect.any(String) });
    expect(connection.accounts).toEqual([
      expect.objectContaining({ connectionId: created.id, name: 'Platinum Checking', currency: 'USD', balance: 1234.5, enabled: true }),
    ]);
    expect((await trpc.bankConnections.get.query()).find((c) => c.id === created.id)).toEqual(connection);
    const [account] = connection.accounts;
    expect(await trpc.bankAccounts.getById.query({ id: account.id })).toEqual(account);
    const disabled = await trpc.bankAccounts.update.mutate({ id: account.id, data: { name: 'Operating', enabled: false } });
    expect(disabled).toMatchObject({ id: account.id, name: 'Operating', enabled: false });
    expect((await trpc.bankAccounts.get.query()).find((a) => a.id === account.id)).toEqual(disabled);

    bankB.addTransactions(e, 2);
    expect(await trpc.bankConnections.sync.mutate({ id: created.id })).toEqual({
      workflowId: syncConnectionId(created.id),
      status: 'sync_requested',
    });
    expect(await workflowDone(created.id)).toMatchObject({ added: 2, modified: 3 });
    // A sync refreshes what the bank owns and keeps what the team chose.
    expect((await trpc.bankAccounts.getById.query({ id: account.id })).enabled).toBe(false);

    await trpc.bankConnections.delete.mutate({ id: created.id });
    expect(await trpcError(trpc.bankConnections.getById.query({ id: created.id }))).toMatchObject({
      httpStatus: 404,
      description: `Bank connection ${created.id} not found`,
    });
    // Its account stays, unlinked, with its transactions.
    expect((await trpc.bankAccounts.getById.query({ id: account.id })).connectionId).toBeNull();
  });

  it("answers 404 for another team's connections and accounts, 400 for invalid input, 409 for a duplicate and 403 without the scope", async () => {
    const trpc = trpcAs(api, acme.sessionToken);
    const e = bankB.addEnrollment();
    const created = await trpc.bankConnections.create.mutate({
      provider: 'bank-b',
      accessToken: e.accessToken,
      enrollmentId: e.enrollmentId,
    });
    await workflowDone(created.id);
    const [account] = (await trpc.bankConnections.getById.query({ id: created.id })).accounts;

    const stranger = await createTeamAndOwner(tdb.db, 'Stranger');
    const other = trpcAs(api, stranger.sessionToken);
    for (const call of [
      other.bankConnections.getById.query({ id: created.id }),
      other.bankConnections.sync.mutate({ id: created.id }),
      other.bankConnections.delete.mutate({ id: created.id }),
      other.bankAccounts.getById.query({ id: account.id }),
      other.bankAccounts.update.mutate({ id: account.id, data: { name: 'Mine now' } }),
    ])
      expect(await trpcError(call)).toMatchObject({ httpStatus: 404, error: 'Not Found' });
    expect(await other.bankConnections.get.query()).toEqual([]);
    expect(await other.bankAccounts.get.query()).toEqual([]);

    expect(await trpcError(trpc.bankAccounts.update.mutate({ id: account.id, data: {} }))).toMatchObject({ httpStatus: 400 });
    expect(await trpcError(trpc.bankConnections.create.mutate({ provider: 'bank-a', publicToken: 'public-sandbox-nope' }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'publicToken', message: 'invalid or expired' }],
    });
    expect(
      await trpcError(trpc.bankConnections.create.mutate({ provider: 'bank-b', accessToken: e.accessToken, enrollmentId: e.enrollmentId })),
    ).toMatchObject({ httpStatus: 409, description: 'This bank-b connection already exists' });

    const reader = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['bank-accounts.read']);
    const readOnly = trpcAs(api, reader);
    expect((await readOnly.bankAccounts.getById.query({ id: account.id })).id).toBe(account.id);
    for (const call of [
      readOnly.bankConnections.sync.mutate({ id: created.id }),
      readOnly.bankAccounts.update.mutate({ id: account.id, data: { enabled: false } }),
    ])
      expect(await trpcError(call)).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
  });
});

describe('deleting a connection', () => {
  it('stops future syncs: later webhooks find nothing, transactions stay', async () => {
    const { item, connection } = await connectBankA(4);
    const before = await countTx(acme.team.id);
    expect((await api.fetch(`/bank-connections/${connection.id}`, { method: 'DELETE', token: acme.sessionToken })).status).toBe(204);
    bankA.addTransactions(item.itemId, 3, 500);
    const res = await postBankA({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: item.itemId });
    expect(res.status).toBe(200);
    const event = await tdb.db('webhook_events').where({ provider: 'bank-a' }).orderBy('receivedAt', 'desc').first();
    expect(event.outcome).toBe('ignored');
    expect(await countTx(acme.team.id)).toBe(before);
    expect((await api.fetch(`/bank-connections/${connection.id}`, { token: acme.sessionToken })).status).toBe(404);
  });
});

describe('bank-a webhooks', () => {
  it('SYNC_UPDATES_AVAILABLE syncs added, modified and removed transactions', async () => {
    const { item, connection, initial } = await connectBankA(10);
    const before = await countTx(acme.team.id);
    const more = bankA.addTransactions(item.itemId, 5, 100);
    bankA.modify(item.itemId, { ...initial[0], name: 'CHANGED', merchant_name: 'Changed Merchant' });
    bankA.remove(item.itemId, initial[1]);
    // What the team wrote on a transaction outlives the bank's changes to it.
    await tdb.db('transactions').where({ providerTransactionId: initial[0].transaction_id }).update({ note: 'keep me' });
    const syncedBefore = await tdb.db('transactions').where({ providerTransactionId: initial[0].transaction_id }).first();
    const res = await postBankA({
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      item_id: item.itemId,
      initial_update_complete: true,
      historical_update_complete: true,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const result = await eventually(
      () => workflowDone(connection.id),
      (r) => r.added >= 5,
    );
    expect(result).toMatchObject({ added: 5, modified: 1, removed: 1 });
    expect(await countTx(acme.team.id)).toBe(before + 4);
    expect(await tdb.db('transactions').where({ providerTransactionId: more[4].transaction_id }).first()).toBeTruthy();
    expect(await tdb.db('transactions').where({ providerTransactionId: initial[1].transaction_id }).first()).toBeUndefined();
    const changed = await tdb.db('transactions').where({ providerTransactionId: initial[0].transaction_id }).first();
    expect(changed).toMatchObject({ merchantName: 'Changed Merchant', name: 'Changed Merchant', description: 'CHANGED', note: 'keep me' });
    expect(changed.updatedAt.getTime()).toBeGreaterThan(syncedBefore.updatedAt.getTime());
    const event = await tdb
      .db('webhook_events')
      .where({ provider: 'bank-a', eventType: 'TRANSACTIONS.SYNC_UPDATES_AVAILABLE' })
      .orderBy('receivedAt', 'desc')
      .first();
    expect(event).toMatchObject({ outcome: 'processed', teamId: acme.team.id, workflowId: `sync-connection:${connection.id}` });
  });

  it('webhooks while a run holds the lease are counted, not signalled: the run makes another pass for them, then gives the lease back', async () => {
    const { item, connection } = await connectBankA(2);
    const update = { webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: item.itemId };
    const lease = () => tdb.db('bank_connection_sync_requests').where({ connectionId: connection.id }).first();
    expect((await lease()).leaseUntil).toBeNull();
    bankA.slowSync(1500);
    try {
      bankA.addTransactions(item.itemId, 1, 200);
      expect((await postBankA(update)).status).toBe(200);
      await eventually(
        async () => (await lease()).leaseUntil,
        (until) => until !== null,
      );
      const accountReads = bankA.requestsTo('/accounts/get');
      // While the first pass waits on the bank: three more webhooks, each with a new transaction,
      // the last on an account opened at the bank meanwhile.
      const later = [1, 2].map((i) => bankA.addTransactions(item.itemId, 1, 200 + i)[0]);
      const savings = bankA.openAccount(item.itemId);
      const onSavings = {
        ...bankA.addTransactions(item.itemId, 1, 203)[0],
        transaction_id: `tx_savings_${Date.now()}`,
        account_id: savings,
      };
      bankA.add(item.itemId, [onSavings]);
      for (let i = 0; i < 3; i++) expect((await postBankA(update)).status).toBe(200);
      const handle = worker.client.workflow.getHandle<SyncConnectionWorkflow>(syncConnectionId(connection.id));
      expect(await handle.result()).toMatchObject({ added: 5, passes: 2 });
      for (const tx of later) expect(await tdb.db('transactions').where({ providerTransactionId: tx.transaction_id }).first()).toBeTruthy();
      // The accounts were read with the first pass, again when its page named the new one, and not
      // by the second pass of the burst.
      expect(bankA.requestsTo('/accounts/get') - accountReads).toBe(1);
      const savingsAccount = await tdb.db('bank_accounts').where({ bankConnectionId: connection.id, providerAccountId: savings }).first();
      expect(savingsAccount).toBeTruthy();
      expect(await tdb.db('transactions').where({ providerTransactionId: onSavings.transaction_id }).first()).toMatchObject({
        bankAccountId: savingsAccount.id,
      });
      const signals = (await handle.fetchHistory()).events!.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
      expect(signals).toBe(1);
      expect(await lease()).toMatchObject({ requests: 4, seen: 4, leaseUntil: null });
      // What follows the passes, once for the burst: one notice of all five.
      const notices = await tdb
        .db('notifications')
        .where({ teamId: acme.team.id, type: 'transactions_created' })
        .orderBy('createdAt', 'desc');
      expect(notices[0].metadata).toMatchObject({ connectionId: connection.id, count: 5 });
    } finally {
      bankA.slowSync(0);
    }
    // Given back: the next webhook starts a run again.
    const first = await worker.client.workflow.getHandle(syncConnectionId(connection.id)).describe();
    bankA.addTransactions(item.itemId, 1, 210);
    expect((await postBankA(update)).status).toBe(200);
    const next = await eventually(
      () => worker.client.workflow.getHandle(syncConnectionId(connection.id)).describe(),
      (d) => d.runId !== first.runId,
    );
    expect(
      await worker.client.workflow.getHandle<SyncConnectionWorkflow>(syncConnectionId(connection.id), next.runId).result(),
    ).toMatchObject({
      added: 1,
    });
  });

  it("TRANSACTIONS_REMOVED deletes the team's transactions with those provider ids", async () => {
    const { item } = await connectBankA(3);
    const stored = await tdb
      .db('transactions')
      .where('providerTransactionId', 'like', `tx_${item.itemId.slice(5, 13)}_%`)
      .select('providerTransactionId');
    const ids = stored.slice(0, 2).map((r: UntypedJson) => r.providerTransactionId);
    expect(ids).toHaveLength(2);
    await postBankA({
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'TRANSACTIONS_REMOVED',
      item_id: item.itemId,
      removed_transactions: ids,
      error: null,
    });
    expect(await tdb.db('transactions').whereIn('providerTransactionId', ids).count('* as n').first()).toEqual({ n: 0 });
  });

  it('ITEM ERROR and USER_PERMISSION_REVOKED disconnect; LOGIN_REPAIRED reconnects', async () => {
    const { item, connection } = await connectBankA(1);
    const status = async () => (await tdb.db('bank_connections').where({ id: connection.id }).first()).status;
    await postBankA({
      webhook_type: 'ITEM',
      webhook_code: 'ERROR',
      item_id: item.itemId,
      error: {
        error_type: 'ITEM_ERROR',
        error_code: 'ITEM_LOGIN_REQUIRED',
        error_message: 'login',
        display_message: 'Please log in again',
      },
    });
    expect(await status()).toBe('disconnected');
    expect((await tdb.db('bank_connections').where({ id: connection.id }).first()).errorCode).toBe('ITEM_LOGIN_REQUIRED');
    await postBankA({ webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: item.itemId });
    expect(await status()).toBe('connected');
    await postBankA({
      webhook_type: 'ITEM',
      webhook_code: 'USER_PERMISSION_REVOKED',
      item_id: item.itemId,
      error: { error_code: 'USER_PERMISSION_REVOKED' },
    });
    expect(await status()).toBe('disconnected');
    // A second report about a connection already broken tells the team nothing new.
    await postBankA({ webhook_type: 'ITEM', webhook_code: 'ERROR', item_id: item.itemId, error: { error_code: 'ITEM_LOGIN_REQUIRED' } });
    const notices = await tdb
      .db('notifications')
      .where({ teamId: acme.team.id })
      .whereIn('type', ['bank_connection_disconnected', 'bank_connection_reconnected'])
      .orderBy('createdAt');
    expect(notices.map((n: { type: string }) => n.type)).toEqual([
      'bank_connection_disconnected',
      'bank_connection_reconnected',
      'bank_connection_disconnected',
    ]);
    expect(notices[0].metadata).toMatchObject({ connectionId: connection.id, code: 'ITEM_LOGIN_REQUIRED', reason: 'Please log in again' });
  });

  it('HISTORICAL_UPDATE syncs only a connection under one day old', async () => {
    const { item, connection } = await connectBankA(2);
    bankA.addTransactions(item.itemId, 3, 50);
    const historicalUpdate = {
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'HISTORICAL_UPDATE',
      item_id: item.itemId,
      new_transactions: 3,
      error: null,
    };
    await postBankA(historicalUpdate);
    await eventually(
      () => workflowDone(connection.id),
      (r) => r.added === 3,
    );
    await tdb
      .db('bank_connections')
      .where({ id: connection.id })
      .update({ createdAt: new Date(Date.now() - 2 * 86_400_000) });
    // What a sync would fetch now: the ignored update must not bring it.
    bankA.addTransactions(item.itemId, 4, 60);
    const handle = worker.client.workflow.getHandle(syncConnectionId(connection.id));
    const synced = await handle.describe();
    const rowsBefore = await countTx(acme.team.id);
    const connectionBefore = await tdb.db('bank_connections').where({ id: connection.id }).first();

    expect((await postBankA(historicalUpdate)).status).toBe(200);
    const last = await tdb
      .db('webhook_events')
      .where({ eventType: 'TRANSACTIONS.HISTORICAL_UPDATE' })
      .orderBy('receivedAt', 'desc')
      .first();
    expect(last.outcome).toBe('ignored');
    // No run was started and none signalled: the business-key id still names the finished run, its history unchanged.
    const after = await handle.describe();
    expect({ runId: after.runId, status: after.status.name, historyLength: after.historyLength }).toEqual({
      runId: synced.runId,
      status: 'COMPLETED',
      historyLength: synced.historyLength,
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await handle.describe()).runId).toBe(synced.runId);
    expect(await countTx(acme.team.id)).toBe(rowsBefore);
    expect(await tdb.db('bank_connections').where({ id: connection.id }).first()).toEqual(connectionBefore);
  });

  it('answers an unknown item with 200 and records it as ignored; a redelivery does nothing twice', async () => {
    const signed = await bankA.sign({
      webhook_type: 'ITEM',
      webhook_code: 'ERROR',
      item_id: 'item_unknown',
      environment: 'sandbox',
      error: null,
    });
    const first = await api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw });
    const second = await api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw });
    expect([first.status, second.status]).toEqual([200, 200]);
    const rows = await tdb.db('webhook_events').where({ provider: 'bank-a', eventType: 'ITEM.ERROR' }).whereNull('teamId');
    expect(rows).toHaveLength(1);
    expect(rows[0].outcome).toBe('ignored');
  });

  it('rejects every forged, stale or mismatched signature with 401 Invalid signature, and bad JSON with 400', async () => {
    const payload = { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: 'x', environment: 'sandbox' };
    const other = await generateKeyPair('ES256');
    const cases: { raw: string; headers: Record<string, string> }[] = [
      await bankA.sign(payload, { key: other.privateKey }), // wrong key
      await bankA.sign(payload, { iatOffsetS: -301 }), // older than 5 minutes
      await bankA.sign(payload, { bodyOverride: '{"tampered":true}' }), // body hash mismatch
      await bankA.sign(payload, { kid: 'unknown-kid' }),
    ];
    const hs = await new SignJWT({ request_body_sha256: 'x' })
      .setProtectedHeader({ alg: 'HS256', kid: bankA.kid })
      .setIssuedAt()
      .sign(new TextEncoder().encode('k'.repeat(32)));
    cases.push({ raw: JSON.stringify(payload, null, 2), headers: { 'content-type': 'application/json', 'bank-a-verification': hs } });
    cases.push({ raw: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
    for (const c of cases) {
      const res = await api.fetch('/webhook/bank-a', { method: 'POST', headers: c.headers, body: c.raw });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'Invalid signature' });
    }
    const bad = await bankA.sign({ webhook_type: 'ITEM' }); // no item_id
    const res = await api.fetch('/webhook/bank-a', { method: 'POST', headers: bad.headers, body: bad.raw });
    expect(res.status).toBe(400);
    expect((await res.json()).description).toBe('Invalid payload');
    const huge = await api.fetch('/webhook/bank-a', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(1024 * 1024 + 10),
    });
    expect(huge.status).toBe(413);
  });

  it('refreshes its cached keys when the provider rotates: the expired key is refused from then on, the new one accepted', async () => {
    const fresh = await startBankAFake();
    const other = await startTestApi(tdb.db, { env: { ...env, BANK_A_API_URL: fresh.url } });
    const payload = { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: 'item_rotation', environment: 'sandbox' };
    const post = async (signed: { raw: string; headers: Record<string, string> }) =>
      (await other.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw })).status;
    try {
      expect(await post(await fresh.sign(payload))).toBe(200); // the first key, now cached
      const old = await fresh.rotateKey();
      expect(await post(await fresh.sign(payload))).toBe(200);
      expect(await post(await fresh.sign(payload, old))).toBe(401);
    } finally {
      await other.stop();
      await fresh.close();
    }
  });

  it('refuses a key the provider has expired', async () => {
    const fresh = await startBankAFake();
    fresh.expireKey();
    const other = await startTestApi(tdb.db, { env: { ...env, BANK_A_API_URL: fresh.url } });
    try {
      const signed = await fresh.sign({ webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: 'x', environment: 'sandbox' });
      const res = await other.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw });
      expect(res.status).toBe(401);
    } finally {
      await other.stop();
      await fresh.close();
    }
  });
});

describe('bank-b', () => {
  it('connects, syncs, re-syncs on transactions.processed, disconnects on enrollment.disconnected; accepts rotated secrets', async () => {
    const e = bankB.addEnrollment();
    bankB.addTransactions(e, 7);
    const res = await api.fetch('/bank-connections', {
      token: acme.sessionToken,
      ...json({ provider: 'bank-b', accessToken: e.accessToken, enrollmentId: e.enrollmentId }),
    });
    const { data } = await res.json();
    await workflowDone(data.id);
    const rows = () => tdb.db('transactions').where('providerTransactionId', 'like', `txn_${e.enrollmentId.slice(4)}_%`);
    expect(await rows()).toHaveLength(7);
    const acct = await tdb.db('bank_accounts').where({ bankConnectionId: data.id }).first();
    expect(acct).toMatchObject({ balance: 2500, currency: 'USD' });

    bankB.addTransactions(e, 2);
    const processed = signBankB(
      {
        id: 'wh_1',
        type: 'transactions.processed',
        timestamp: new Date().toISOString(),
        payload: { enrollment_id: e.enrollmentId, transactions: [] },
      },
      [SECRETS[1]],
    );
    expect((await api.fetch('/webhook/bank-b', { method: 'POST', headers: processed.headers, body: processed.raw })).status).toBe(200);
    await eventually(
      () => rows(),
      (r) => r.length === 9,
    );

    const test = signBankB({ id: 'wh_2', type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} }, SECRETS);
    expect(await (await api.fetch('/webhook/bank-b', { method: 'POST', headers: test.headers, body: test.raw })).json()).toEqual({
      success: true,
    });

    const disc = signBankB(
      {
        id: 'wh_3',
        type: 'enrollment.disconnected',
        timestamp: new Date().toISOString(),
        payload: { enrollment_id: e.enrollmentId, reason: 'disconnected.account_locked' },
      },
      [SECRETS[0]],
    );
    await api.fetch('/webhook/bank-b', { method: 'POST', headers: disc.headers, body: disc.raw });
    const conn = await tdb.db('bank_connections').where({ id: data.id }).first();
    expect(conn).toMatchObject({ status: 'disconnected', errorCode: 'disconnected.account_locked' });
  });

  it('rejects wrong secrets and stale timestamps', async () => {
    const body = { id: 'wh_x', type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} };
    for (const signed of [signBankB(body, ['not-ours']), signBankB(body, SECRETS, Math.floor(Date.now() / 1000) - 181)]) {
      const res = await api.fetch('/webhook/bank-b', { method: 'POST', headers: signed.headers, body: signed.raw });
      expect(res.status).toBe(401);
    }
  });
});

describe('SyncConnection', () => {
  it('coalesces a burst of ten webhooks into one run with at most one extra pass', async () => {
    const item = bankA.addItem();
    bankA.addTransactions(item.itemId, 3000);
    const res = await api.fetch('/bank-connections', {
      token: acme.sessionToken,
      ...json({ provider: 'bank-a', publicToken: item.publicToken }),
    });
    const { data } = await res.json();
    bankA.slowSync(150);
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postBankA({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: item.itemId, n: i }),
      ),
    );
    expect(burst.every((r) => r.status === 200)).toBe(true);
    const result = await workflowDone(data.id);
    bankA.slowSync(0);
    expect(result.passes).toBeLessThanOrEqual(2);
    expect(result.added).toBe(3000);
    const runs = [];
    for await (const w of worker.client.workflow.list({ query: `WorkflowId = 'sync-connection:${data.id}'` })) runs.push(w);
    expect(runs).toHaveLength(1);
  });

  it('marks the connection disconnected and stops retrying when the bank refuses the credentials', async () => {
    const { item, connection } = await connectBankA(1);
    bankA.requireLogin(item.itemId);
    const res = await api.fetch(`/bank-connections/${connection.id}/sync`, { method: 'POST', token: acme.sessionToken });
    expect(res.status).toBe(202);
    await expect(workflowDone(connection.id)).rejects.toThrow();
    const conn = await tdb.db('bank_connections').where({ id: connection.id }).first();
    expect(conn).toMatchObject({ status: 'disconnected', errorCode: 'ITEM_LOGIN_REQUIRED' });
    const again = await api.fetch(`/bank-connections/${connection.id}/sync`, { method: 'POST', token: acme.sessionToken });
    expect(again.status).toBe(409);
  });

  it('retries a transient provider failure and finishes the sync', async () => {
    const item = bankA.addItem();
    bankA.addTransactions(item.itemId, 5);
    bankA.fail('/transactions/sync', 500, { error_type: 'API_ERROR', error_code: 'INTERNAL_SERVER_ERROR' }, 1);
    const res = await api.fetch('/bank-connections', {
      token: acme.sessionToken,
      ...json({ provider: 'bank-a', publicToken: item.publicToken }),
    });
    const { data } = await res.json();
    const result = await workflowDone(data.id);
    expect(result.added).toBe(5);
  });
});
