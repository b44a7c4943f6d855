import { request } from 'node:http';
import { signBankB, signBankBText } from '../fakes/bank-b';
import { deepJson } from '../support/fuzz';
import { startTestApi, type TestApi } from '../support/api';
import { startWebhookRelay } from '../../api/webhooks/relay';
import { createTemporalGateway } from '../../shared/temporal/client';
import { withTwoTeams } from '../support/two-teams';

const SECRETS = ['hardening-secret'];
const ENV = { BANK_B_WEBHOOK_SECRETS: SECRETS.join(','), TRUST_PROXY: 'true', AUTH_FAILURES_PER_MINUTE: '10' };
const { ctx } = withTwoTeams({ env: ENV });

const postBankB = (api: TestApi, body: unknown, headers: Record<string, string> = {}) => {
  const signed = signBankB(body, SECRETS);
  return api.fetch('/webhook/bank-b', { method: 'POST', headers: { ...signed.headers, ...headers }, body: signed.raw });
};
const event = (id: string) => ctx.tdb.db('webhook_events').where({ provider: 'bank-b' }).where('eventKey', id).first();
let n = 0;
const connection = async (status = 'connected') => {
  n += 1;
  const [row] = await ctx.tdb
    .db('bank_connections')
    .insert({ teamId: ctx.acme.team.id, provider: 'bank-b', referenceId: `enr_hardening_${n}`, status })
    .returning(['id', 'referenceId']);
  return row as { id: string; referenceId: string };
};

describe('provider webhooks under hostile or broken conditions', () => {
  it('drops NUL characters from a signed payload instead of failing on them', async () => {
    const conn = await connection();
    const res = await postBankB(ctx.api, {
      id: 'evt_nul',
      type: 'enrollment.disconnected',
      timestamp: new Date().toISOString(),
      payload: { enrollment_id: conn.referenceId, reason: 'user\u0000_action' },
    });
    expect(res.status).toBe(200);
    expect(await ctx.tdb.db('bank_connections').where({ id: conn.id }).first()).toMatchObject({
      status: 'disconnected',
      errorCode: 'user_action',
    });
  });

  it('stores a lone surrogate in a signed payload as U+FFFD instead of failing on it', async () => {
    const conn = await connection();
    const res = await postBankB(ctx.api, {
      id: 'evt_surrogate',
      type: 'enrollment.disconnected',
      timestamp: new Date().toISOString(),
      payload: { enrollment_id: conn.referenceId, reason: 'user\ud800_action' },
    });
    expect(res.status).toBe(200);
    expect(await ctx.tdb.db('bank_connections').where({ id: conn.id }).first()).toMatchObject({
      status: 'disconnected',
      errorCode: 'user\ufffd_action',
    });
    expect(await ctx.tdb.db('webhook_events').where({ provider: 'bank-b', eventKey: 'evt_surrogate' }).first()).toMatchObject({
      outcome: 'processed',
    });
  });

  it('records an event whose id is too large for an index, once', async () => {
    const huge = `evt_${'x'.repeat(900_000)}`;
    const body = { id: huge, type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} };
    expect((await postBankB(ctx.api, body)).status).toBe(200);
    expect((await postBankB(ctx.api, body)).status).toBe(200);
    const rows = await ctx.tdb.db('webhook_events').where({ provider: 'bank-b' }).whereLike('eventKey', 'sha256:%');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'processed' });
  });

  it('refuses a signed body nested deeper than 64 levels with 400 before recording anything; up to it, records it', async () => {
    // webhook.test keeps its payload as sent: without the limit the deep value reached the jsonb column and the stack overflowed.
    const delivery = (id: string, levels: number) =>
      signBankBText(
        `{"id":"${id}","type":"webhook.test","timestamp":"${new Date().toISOString()}","payload":{"a":${deepJson(levels)}}}`,
        SECRETS,
      );
    const deep = delivery('evt_deep', 100_000);
    const res = await ctx.api.fetch('/webhook/bank-b', { method: 'POST', headers: deep.headers, body: deep.raw });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: {
        error: 'Bad Request',
        description: 'Invalid payload',
        details: [{ field: '(root)', message: 'arrays and objects nest at most 64 levels deep' }],
      },
    });
    expect(await event('evt_deep')).toBeUndefined();

    const shallow = delivery('evt_shallow', 61);
    expect((await ctx.api.fetch('/webhook/bank-b', { method: 'POST', headers: shallow.headers, body: shallow.raw })).status).toBe(200);
    expect(await event('evt_shallow')).toMatchObject({ outcome: 'processed' });
  });

  it('checks the inbox credentials before reading a large body', async () => {
    const url = new URL(ctx.api.url);
    // Announces 20 MB and sends 10 bytes: an answer can only come from checking the headers first.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/webhook/inbox',
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': 20_000_000,
            authorization: `Basic ${Buffer.from('inbox:wrong').toString('base64')}`,
          },
        },
        (res) => {
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('{"Message');
    });
    expect(status).toBe(401);
  });

  it('throttles an address that keeps failing webhook credentials or verify tokens', async () => {
    const wrongBasic = { authorization: `Basic ${Buffer.from('inbox:guess').toString('base64')}`, 'x-forwarded-for': '203.0.113.50' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await ctx.api.fetch('/webhook/inbox', {
            method: 'POST',
            headers: { ...wrongBasic, 'content-type': 'application/json' },
            body: '{}',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);

    // A delivery whose signature is right proves its sender: it is not throttled with the guesser
    // sharing its address, and it is recorded.
    const wrongSignature = { 'x-forwarded-for': '203.0.113.52', 'bank-b-signature': 't=1,v1=00' };
    for (let i = 0; i < 12; i++) await ctx.api.fetch('/webhook/bank-b', { method: 'POST', headers: wrongSignature, body: '{}' });
    const honest = { id: 'evt_shared_address', type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} };
    expect((await postBankB(ctx.api, honest, { 'x-forwarded-for': '203.0.113.52' })).status).toBe(200);
    expect(await event('evt_shared_address')).toMatchObject({ outcome: 'processed' });
    const stillGuessing = await ctx.api.fetch('/webhook/bank-b', { method: 'POST', headers: wrongSignature, body: '{}' });
    expect(stillGuessing.status).toBe(429);
    expect(Number(stillGuessing.headers.get('retry-after'))).toBeGreaterThan(0);

    const verify = (token: string) =>
      ctx.api.fetch(`/webhook/messaging?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=42`, {
        headers: { 'x-forwarded-for': '203.0.113.51' },
      });
    const tokens: number[] = [];
    for (let i = 0; i < 12; i++) tokens.push((await verify(`guess-${i}`)).status);
    expect(tokens.slice(0, 10).every((s) => s === 403)).toBe(true);
    expect(tokens.slice(10)).toEqual([429, 429]);
  });

  it('keeps an event it could not act on (Temporal unreachable), answers 200, and the relay acts on it later', async () => {
    const down = createTemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'nowhere' });
    const cut = await startTestApi(ctx.tdb.db, { env: ENV, temporal: down });
    const conn = await connection();
    try {
      const res = await postBankB(cut, {
        id: 'evt_outbox',
        type: 'transactions.processed',
        timestamp: new Date().toISOString(),
        payload: { enrollment_id: conn.referenceId },
      });
      expect(res.status).toBe(200);
      expect(await event('evt_outbox')).toMatchObject({ outcome: 'failed', payload: { type: 'transactions.processed' } });
    } finally {
      await cut.stop();
      await down.close();
    }
    // Temporal is back (the suite's server): the relay, once the backoff has passed, starts the sync.
    const relay = startWebhookRelay(ctx.api.deps, { intervalMs: 60_000 });
    try {
      await ctx.tdb
        .db('webhook_events')
        .where({ eventKey: 'evt_outbox' })
        .update({ nextAttemptAt: new Date(Date.now() - 1000) });
      expect(await relay.runOnce()).toBeGreaterThanOrEqual(1);
      expect(await event('evt_outbox')).toMatchObject({ outcome: 'processed', workflowId: `sync-connection:${conn.id}`, attempts: 1 });
      const client = await ctx.api.deps.temporal.client();
      expect((await client.workflow.getHandle(`sync-connection:${conn.id}`).describe()).workflowId).toBe(`sync-connection:${conn.id}`);
    } finally {
      await relay.stop();
    }
  });

  it('has the relay finish an event a crashed process had taken and never finished', async () => {
    const conn = await connection();
    const [row] = await ctx.tdb
      .db('webhook_events')
      .insert({
        provider: 'bank-b',
        eventKey: 'evt_crashed',
        eventType: 'transactions.processed',
        outcome: 'received',
        receivedAt: new Date(Date.now() - 120_000),
        payload: JSON.stringify({
          id: 'evt_crashed',
          type: 'transactions.processed',
          timestamp: new Date().toISOString(),
          payload: { enrollment_id: conn.referenceId },
        }),
      })
      .returning('id');
    const relay = startWebhookRelay(ctx.api.deps, { intervalMs: 60_000 });
    try {
      await relay.runOnce();
      expect(await ctx.tdb.db('webhook_events').where({ id: row.id }).first()).toMatchObject({
        outcome: 'processed',
        workflowId: `sync-connection:${conn.id}`,
      });
    } finally {
      await relay.stop();
    }
  });
});
