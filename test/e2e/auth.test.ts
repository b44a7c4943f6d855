import { SignJWT } from 'jose';
import { signSessionToken } from '../../api/auth/session-token';
import { newApiKey } from '../../shared/domain/crypto/tokens';
import { createTemporalGateway } from '../../shared/temporal/client';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { startTestApi, testConfig, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from '../support/worker';

let tdb: TestDatabase;
let api: TestApi;
let smtp: SmtpSink;
let worker: TestWorker;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  smtp = await startSmtpSink();
  const env = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: uniqueTaskQueue('auth'), TRUST_PROXY: 'true' };
  api = await startTestApi(tdb.db, { env });
  worker = await startTestWorker(testConfig(env), tdb.db);
  acme = await createTeamAndOwner(tdb.db, 'Acme');
});
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  await smtp?.close();
  await tdb?.drop();
});

const secret = () => new TextEncoder().encode(testConfig().AUTH_JWT_SECRET!);
const body = async (res: Response | { json(): Promise<any> }) => (res as any).json();
const trpc = (path: string, token: string, input?: unknown) =>
  api
    .fetch(`/trpc/${path}`, { method: 'POST', token, headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.23' }, body: JSON.stringify(input ?? {}) })
    .then((r) => r.json());
const query = (path: string, token: string) => api.fetch(`/trpc/${path}`, { token }).then((r) => r.json());

describe('bearer authentication errors (spec part 7)', () => {
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
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(acme.user.id).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(secret());
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(acme.user.id).setExpirationTime('1h').sign(new TextEncoder().encode('x'.repeat(40)));
    const orphan = await signSessionToken(testConfig().AUTH_JWT_SECRET!, '00000000-0000-4000-8000-00000000dead');
    for (const [token, description] of [[expired, 'Session token expired'], [forged, 'Invalid session token'], [orphan, 'User not found']]) {
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
    expect(await (await api.fetch('/transactions', { token: key })).json()).toEqual({ error: 'Unauthorized', description: 'User not found' });
  });
});

describe('API keys over tRPC', () => {
  it('creates a key shown once, lists it without the secret, and mails the account holder with the requester IP', async () => {
    const created = await trpc('apiKeys.upsert', acme.sessionToken, { name: 'CI', scopes: ['transactions.read'] });
    const { key, data } = created.result.data;
    expect(key).toMatch(/^svc_[0-9a-f]{64}$/);
    expect(data).toMatchObject({ name: 'CI', scopes: ['transactions.read'], keyHint: key.slice(-4), lastUsedAt: null, user: { id: acme.user.id } });

    const stored = await tdb.db('api_keys').where({ id: data.id }).first();
    expect(JSON.stringify(stored)).not.toContain(key); // only the hash is stored

    const listed = await query('apiKeys.get', acme.sessionToken);
    expect(listed.result.data.map((k: any) => k.id)).toContain(data.id);
    expect(JSON.stringify(listed)).not.toContain(key);

    expect((await api.fetch('/transactions', { token: key })).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(acme.user.email) && m.subject.includes('CI'));
    expect(mail.text).toContain('Requested from IP address: 198.51.100.23');
    expect(mail.text).toContain(`Created: ${new Date(data.createdAt).toUTCString()}`);

    const after = await tdb.db('api_keys').where({ id: data.id }).first();
    expect(after.lastUsedAt).not.toBeNull();
  });

  it('updates only name and scopes, and a deleted key fails on the very next request', async () => {
    const { key, data } = (await trpc('apiKeys.upsert', acme.sessionToken, { name: 'temp', scopes: ['invoices.read'] })).result.data;
    expect((await api.fetch('/transactions', { token: key })).status).toBe(403);
    const updated = await trpc('apiKeys.upsert', acme.sessionToken, { id: data.id, name: 'renamed', scopes: ['transactions.read'] });
    expect(updated.result.data.data).toMatchObject({ id: data.id, name: 'renamed', scopes: ['transactions.read'] });
    expect(updated.result.data.key).toBeUndefined();
    expect((await api.fetch('/transactions', { token: key })).status).toBe(200);

    await trpc('apiKeys.delete', acme.sessionToken, { id: data.id });
    const res = await api.fetch('/transactions', { token: key });
    expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'Invalid API key' });
  });

  it('never grants more than the caller holds, and needs teams.write to manage keys', async () => {
    const admin = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['teams.write', 'teams.read', 'transactions.read']);
    const escalate = await trpc('apiKeys.upsert', admin, { name: 'more', scopes: ['apis.all'] });
    expect(escalate.error.data).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
    const ok = await trpc('apiKeys.upsert', admin, { name: 'less', scopes: ['transactions.read'] });
    expect(ok.result.data.key).toBeTruthy();
    const reader = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['apis.read']);
    const denied = await trpc('apiKeys.upsert', reader, { name: 'x', scopes: ['transactions.read'] });
    expect(denied.error.message).toBe('Insufficient permissions. Required scopes: teams.write. Your scopes: apis.read');
    const unknown = await trpc('apiKeys.upsert', acme.sessionToken, { name: 'x', scopes: ['root'] });
    expect(unknown.error.data.httpStatus).toBe(400);
  });

  it('keeps the key when Temporal is unreachable', async () => {
    const down = await startTestApi(tdb.db, { temporal: createTemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'x' }) });
    try {
      const res = await down.fetch('/trpc/apiKeys.upsert', { method: 'POST', token: acme.sessionToken, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'offline', scopes: ['tags.read'] }) });
      const created = await body(res);
      expect(created.result.data.key).toMatch(/^svc_/);
      expect((await api.fetch('/tags', { token: created.result.data.key })).status).toBe(200);
    } finally {
      await down.stop();
    }
  });
});
