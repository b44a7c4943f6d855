import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { signSessionToken } from '../../api/auth/session-token';
import { newApiKey } from '../../shared/domain/crypto/tokens';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { createTemporalGateway } from '../../shared/temporal/client';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { startTestApi, testConfig, type TestApi } from '../support/api';
import { createTestDatabase, withTestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from '../support/worker';

let api: TestApi;
let smtp: SmtpSink;
let worker: TestWorker;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;

const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
    const env = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: uniqueTaskQueue('auth'), TRUST_PROXY: 'true' };
    api = await startTestApi(tdb.db, { env });
    worker = await startTestWorker(testConfig(env), tdb.db);
    acme = await createTeamAndOwner(tdb.db, 'Acme');
  },
  tearDown: async () => {
    await worker?.stop();
    await api?.stop();
    await smtp?.close();
  },
});

const secret = () => new TextEncoder().encode(testConfig().AUTH_JWT_SECRET);
/** The typed tRPC client, as a caller behind a proxy that forwards its IP. */
const trpc = (token: string) => trpcAs(api, token, { 'x-forwarded-for': '198.51.100.23' });

describe('bearer authentication errors', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['no header', {}, 'Authorization header required'],
    ['another scheme', { authorization: 'Basic abc' }, 'Invalid authorization scheme'],
    ['an empty token', { authorization: 'Bearer ' }, 'Token required'],
    ['a malformed key', { authorization: 'Bearer svc_xyz' }, 'Invalid token format'],
    ['an unknown prefix', { authorization: 'Bearer sk_live_123' }, 'Invalid token format'],
    ['an unknown key', { authorization: `Bearer ${newApiKey()}` }, 'Invalid API key'],
    ['an unknown access token', { authorization: 'Bearer svc_access_token_nope' }, 'Invalid or expired access token'],
  ];
  it.each(cases)('answers %s with 401 and the exact description', async (_label, headers, description) => {
    const res = await api.fetch('/transactions', { headers });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized', description });
  });

  it('does not touch the database for a malformed key', async () => {
    // A malformed key never reaches the lookup: even with the api_keys table gone it is a format error.
    const broken = await createTestDatabase();
    const brokenApi = await startTestApi(broken.db);
    await broken.db.raw('drop table api_keys cascade');
    try {
      const res = await brokenApi.fetch('/transactions', { headers: { authorization: 'Bearer svc_123' } });
      expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'Invalid token format' });
    } finally {
      await brokenApi.stop();
      await broken.drop();
    }
  });

  it('rejects expired, badly signed and orphaned session tokens with 401', async () => {
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(acme.user.id)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret());
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(acme.user.id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(40)));
    const orphan = await signSessionToken(testConfig().AUTH_JWT_SECRET!, '00000000-0000-4000-8000-00000000dead');
    for (const [token, description] of [
      [expired, 'Session token expired'],
      [forged, 'Invalid session token'],
      [orphan, 'User not found'],
    ]) {
      const res = await api.fetch('/transactions', { token });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Unauthorized', description });
    }
  });

  it('rejects a key whose user left the team', async () => {
    const other = await createTeamAndOwner(tdb.db, 'Temp');
    const key = await insertApiKey(tdb.db, { teamId: other.team.id, userId: other.user.id }, ['apis.all']);
    expect((await api.fetch('/transactions', { token: key })).status).toBe(200);
    await tdb.db('team_members').where({ userId: other.user.id }).delete();
    expect(await (await api.fetch('/transactions', { token: key })).json()).toEqual({
      error: 'Unauthorized',
      description: 'User not found',
    });
  });
});

describe('session tokens', () => {
  it("act in the user's current team, else the first team they joined, else are refused", async () => {
    const drifter = await createTeamAndOwner(tdb.db, 'Drifter');
    const teamOf = async () => (await api.fetch('/teams/current', { token: drifter.sessionToken })).json();
    expect((await teamOf()).data.id).toBe(drifter.team.id);
    await tdb.db('users').where({ id: drifter.user.id }).update({ teamId: null });
    expect((await teamOf()).data.id).toBe(drifter.team.id);
    await tdb.db('team_members').where({ userId: drifter.user.id }).delete();
    expect(await teamOf()).toEqual({ error: 'Forbidden', description: 'User does not belong to any team' });
  });
});

describe('a session of a subject we have never seen', () => {
  it('creates no user without AUTH_AUTO_PROVISION, even with a verified email: 401', async () => {
    expect(api.deps.config.AUTH_AUTO_PROVISION).toBe(false);
    const sub = randomUUID();
    const token = await signSessionToken(testConfig().AUTH_JWT_SECRET!, sub, 3600, {
      email: `new-${sub.slice(0, 8)}@example.com`,
      email_verified: true,
      name: 'Nina New',
    });
    const res = await api.fetch('/users/me', { token });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'User not found' });
    expect(await tdb.db('users').where({ id: sub })).toEqual([]);
  });
});

describe('API keys over tRPC', () => {
  it('creates a key shown once, lists it without the secret, and mails the account holder with the requester IP', async () => {
    const { key, data } = await trpc(acme.sessionToken).apiKeys.upsert.mutate({ name: 'CI', scopes: ['transactions.read'] });
    expect(key).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(data).toMatchObject({
      name: 'CI',
      scopes: ['transactions.read'],
      keyHint: key?.slice(-4),
      lastUsedAt: null,
      user: { id: acme.user.id, email: acme.user.email, fullName: 'Olive Owner' },
    });

    const stored = await tdb.db('api_keys').where({ id: data.id }).first();
    expect(JSON.stringify(stored)).not.toContain(key); // only the hash is stored

    const listed = await trpc(acme.sessionToken).apiKeys.get.query();
    expect(listed.find((k) => k.id === data.id)).toEqual(data);
    expect(JSON.stringify(listed)).not.toContain(key);

    expect((await api.fetch('/transactions', { token: key })).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(acme.user.email) && m.subject.includes('CI'));
    expect(mail.text).toContain('Requested from IP address: 198.51.100.23');
    expect(mail.text).toContain(`Created: ${new Date(data.createdAt).toUTCString()}`);

    const after = (await trpc(acme.sessionToken).apiKeys.get.query()).find((k) => k.id === data.id);
    expect(after?.lastUsedAt).not.toBeNull();

    // The whole team hears of a new way into its data, in the app, without the secret.
    const notices = await notificationsOf(tdb.db, acme.team.id, 'api_key_created');
    expect(notices.find((n) => n.metadata.apiKeyId === data.id)).toMatchObject({
      userId: null,
      metadata: { name: 'CI', createdBy: acme.user.id, scopes: ['transactions.read'] },
    });
    expect(JSON.stringify(notices)).not.toContain(key);
  });

  it('updates only name and scopes, and a deleted key fails on the very next request', async () => {
    const keys = trpc(acme.sessionToken).apiKeys;
    const { key, data } = await keys.upsert.mutate({ name: 'temp', scopes: ['invoices.read'] });
    expect((await api.fetch('/transactions', { token: key })).status).toBe(403);
    const updated = await keys.upsert.mutate({ id: data.id, name: 'renamed', scopes: ['transactions.read'] });
    expect(updated.data).toMatchObject({ id: data.id, name: 'renamed', scopes: ['transactions.read'], keyHint: data.keyHint });
    expect(updated.key).toBeUndefined();
    expect((await api.fetch('/transactions', { token: key })).status).toBe(200);

    const other = await createTeamAndOwner(tdb.db, 'Elsewhere');
    const foreign = trpc(other.sessionToken).apiKeys;
    expect(await trpcError(foreign.upsert.mutate({ id: data.id, name: 'stolen', scopes: ['transactions.read'] }))).toMatchObject({
      httpStatus: 404,
      description: `API key ${data.id} not found`,
    });
    expect(await trpcError(foreign.delete.mutate({ id: data.id }))).toMatchObject({ httpStatus: 404 });
    expect(await foreign.get.query()).toEqual([]);

    await keys.delete.mutate({ id: data.id });
    const res = await api.fetch('/transactions', { token: key });
    expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'Invalid API key' });
  });

  it('never grants more than the caller holds, and needs teams.write to manage keys', async () => {
    const admin = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, [
      'teams.write',
      'teams.read',
      'transactions.read',
    ]);
    const escalate = await trpcError(trpc(admin).apiKeys.upsert.mutate({ name: 'more', scopes: ['apis.all'] }));
    expect(escalate).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
    const ok = await trpc(admin).apiKeys.upsert.mutate({ name: 'less', scopes: ['transactions.read'] });
    expect(ok.key).toBeTruthy();
    const reader = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['apis.read']);
    const denied = await trpcError(trpc(reader).apiKeys.upsert.mutate({ name: 'x', scopes: ['transactions.read'] }));
    expect(denied.description).toBe('Insufficient permissions. Required scopes: teams.write. Your scopes: apis.read');
    // @ts-expect-error: not a scope, which the typed client knows too; the server refuses it all the same.
    const unknown = await trpcError(trpc(acme.sessionToken).apiKeys.upsert.mutate({ name: 'x', scopes: ['root'] }));
    expect(unknown.httpStatus).toBe(400);
  });

  it('keeps the key when Temporal is unreachable', async () => {
    const down = await startTestApi(tdb.db, {
      temporal: createTemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'x' }),
    });
    try {
      const created = await trpcAs(down, acme.sessionToken).apiKeys.upsert.mutate({ name: 'offline', scopes: ['tags.read'] });
      expect(created.key).toMatch(/^svc_/);
      expect((await api.fetch('/tags', { token: created.key })).status).toBe(200);
    } finally {
      await down.stop();
    }
  });
});
