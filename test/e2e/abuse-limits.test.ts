import { randomBytes } from 'node:crypto';
import { newApiKey } from '../../shared/domain/crypto/tokens';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { trpcAs } from '../support/trpc';

let api: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;

// Behind a trusted proxy the client address comes from X-Forwarded-For: each test speaks from addresses of its own.
const ENV = { TRUST_PROXY: 'true', AUTH_FAILURES_PER_MINUTE: '20', RATE_LIMIT_PER_MINUTE: '1000' };
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const freshIp = () => `198.51.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db, { env: ENV });
    acme = await createTeamAndOwner(tdb.db, 'Acme');
  },
  tearDown: async () => {
    await api?.stop();
  },
});

const form = (fields: Record<string, string>, headers: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

describe('guessing credentials', () => {
  it('throttles an address that tries many different wrong API keys, and nobody else', async () => {
    const guesser = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push((await api.fetch('/transactions', { token: newApiKey(), headers: from(guesser) })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    const refused = await api.fetch('/transactions', { token: newApiKey(), headers: from(guesser) });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['transactions.read']);
    expect((await api.fetch('/transactions', { token: key, headers: from(freshIp()) })).status).toBe(200);
  });

  it('does not count requests that present no credential', async () => {
    const ip = freshIp();
    for (let i = 0; i < 25; i++) expect((await api.fetch('/transactions', { headers: from(ip) })).status).toBe(401);
  });
});

describe('the OAuth brute-force guard', () => {
  it("never refuses a client's right secret because of a stranger's failures", async () => {
    const app = await trpcAs(api, acme.sessionToken).oauthApplications.create.mutate({
      name: 'Bookkeeper',
      redirectUris: ['https://client.example.com/cb'],
      scopes: ['transactions.read'],
    });
    const stranger = freshIp();
    const seen: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await api.fetch(
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.client_id, client_secret: `guess-${i}` }, from(stranger)),
      );
      seen.push(res.status);
    }
    expect(seen.at(-1)).toBe(429);
    for (const ip of [freshIp(), stranger]) {
      const real = await api.fetch(
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.client_id, client_secret: app.client_secret! }, from(ip)),
      );
      expect({ ip, status: real.status }).toEqual({ ip, status: 400 }); // judged on its grant, never 429
    }
  });

  it('throttles guessing the codes of a public client per address', async () => {
    const app = await trpcAs(api, acme.sessionToken).oauthApplications.create.mutate({
      name: 'Mobile',
      redirectUris: ['https://client.example.com/cb'],
      scopes: ['transactions.read'],
      isPublic: true,
    });
    const guess = (ip: string, i: number) =>
      api.fetch(
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: `svc_refresh_token_${i}`, client_id: app.client_id }, from(ip)),
      );
    const guesser = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await guess(guesser, i)).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect((await guess(freshIp(), 99)).status).toBe(400);
  });
});

describe('the request budget', () => {
  it('counts every call of a tRPC batch', async () => {
    const limited = await startTestApi(tdb.db, { env: { RATE_LIMIT_PER_MINUTE: '10' } });
    try {
      const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['tags.read']);
      const batch = (n: number) => limited.fetch(`/trpc/${Array(n).fill('tags.get').join(',')}?batch=1&input={}`, { token: key });
      expect((await batch(8)).status).toBe(200);
      const over = await batch(4);
      expect(over.status).toBe(429);
      expect(over.headers.get('ratelimit-remaining')).toBe('0');
    } finally {
      await limited.stop();
    }
  });

  it.each([
    ['PostgreSQL', {}],
    ['Redis', { REDIS_URL: 'redis://127.0.0.1:6379' }],
  ])('is one budget across API processes (%s store)', async (_store, storeEnv) => {
    const env = { RATE_LIMIT_PER_MINUTE: '10', ...storeEnv };
    const [one, two] = await Promise.all([startTestApi(tdb.db, { env }), startTestApi(tdb.db, { env })]);
    try {
      const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['tags.read']);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await (i % 2 ? two : one).fetch('/tags', { token: key })).status);
      expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
