import { Client as PgClient } from 'pg';
import { LISTENER_NAME } from '../../api/auth/credential-cache';
import { sha256Hex } from '../../shared/domain/crypto/tokens';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { oauthAccessToken } from '../support/oauth';
import { trpcAs } from '../support/trpc';

/**
 * Credentials are kept in memory per API process (api/auth/credential-cache.ts) and dropped on the
 * `auth_changed` notification. Two gateways, each with its own cache, stand for two processes: a
 * change made through one (or behind both, in SQL) is refused by the other on the very next request.
 */
let one: TestApi;
let two: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
let authQueries = 0;

const tdb = withTestDatabase({
  setUp: async () => {
    [one, two] = await Promise.all([startTestApi(tdb.db), startTestApi(tdb.db)]);
    acme = await createTeamAndOwner(tdb.db, 'Acme');
    tdb.db.on('query', (q: { sql: string }) => {
      if (/from "(api_keys|oauth_tokens)" as/.test(q.sql)) authQueries++;
    });
  },
  tearDown: async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  },
});

const newKey = async (scopes = ['tags.read']) => {
  const created = await trpcAs(one, acme.sessionToken).apiKeys.upsert.mutate({ name: `k-${Date.now()}`, scopes: scopes as ['tags.read'] });
  return { id: created.data.id, key: created.key! };
};
const status = async (api: TestApi, token: string, path = '/tags') => (await api.fetch(path, { token })).status;

/** Warms both caches, then polls until both answer from memory (their listeners are up). */
async function warm(token: string) {
  for (let i = 0; i < 50; i++) {
    await status(one, token);
    await status(two, token);
    const before = authQueries;
    expect([await status(one, token), await status(two, token)]).toEqual([200, 200]);
    if (authQueries === before) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the credential caches never started answering from memory');
}

describe('the credential cache', () => {
  it('answers a known key from memory: no authentication query', async () => {
    const { key } = await newKey();
    await warm(key);
    const before = authQueries;
    for (let i = 0; i < 20; i++) expect(await status(i % 2 ? one : two, key)).toBe(200);
    expect(authQueries).toBe(before);
  });

  it('skips the failed-authentication count for a key it holds, and still counts for one it does not', async () => {
    const { key } = await newKey();
    await warm(key);
    // The rate limiter's store sends its queries on pooled connections directly, so they are
    // counted on the wire: every pg query that reads a failure counter.
    let counterReads = 0;
    const pgClient = PgClient.prototype as unknown as { query: (this: PgClient, ...args: unknown[]) => unknown };
    const query = pgClient.query;
    pgClient.query = function (...args) {
      const q = args[0] as { text?: string } | undefined;
      if (typeof q?.text === 'string' && /select points, expire from/i.test(q.text)) counterReads++;
      return query.apply(this, args);
    };
    try {
      for (let i = 0; i < 10; i++) expect(await status(i % 2 ? one : two, key)).toBe(200);
      expect(counterReads).toBe(0);
      const fresh = await newKey();
      expect(await status(one, fresh.key)).toBe(200);
      expect(counterReads).toBe(1);
    } finally {
      pgClient.query = query;
    }
  });

  it('refuses a key deleted through one process on the next request to the other, every time', async () => {
    for (let round = 0; round < 10; round++) {
      const { id, key } = await newKey();
      await warm(key);
      await trpcAs(one, acme.sessionToken).apiKeys.delete.mutate({ id });
      expect(await status(two, key)).toBe(401);
      expect(await status(one, key)).toBe(401);
    }
  });

  it('applies narrowed scopes at once', async () => {
    const { id, key } = await newKey(['tags.read', 'transactions.read']);
    await warm(key);
    expect(await status(two, key, '/transactions')).toBe(200);
    await trpcAs(one, acme.sessionToken).apiKeys.upsert.mutate({ id, name: 'narrowed', scopes: ['tags.read'] });
    expect(await status(two, key, '/transactions')).toBe(403);
  });

  it('refuses a key deleted in SQL, behind every process, and a member removed from the team', async () => {
    const sqlDeleted = await newKey();
    await warm(sqlDeleted.key);
    await tdb.db('api_keys').where({ id: sqlDeleted.id }).delete();
    expect(await status(one, sqlDeleted.key)).toBe(401);
    expect(await status(two, sqlDeleted.key)).toBe(401);

    const bob = await createTeamAndOwner(tdb.db, 'Bob’s');
    await tdb.db('team_members').insert({ teamId: acme.team.id, userId: bob.user.id, role: 'member' });
    const bobs = await trpcAs(one, bob.sessionToken, { 'x-team-id': acme.team.id }).apiKeys.upsert.mutate({
      name: 'bob',
      scopes: ['tags.read'],
    });
    await warm(bobs.key!);
    const removed = await one.fetch(`/teams/${acme.team.id}/members/${bob.user.id}`, { method: 'DELETE', token: acme.sessionToken });
    expect(removed.status).toBeLessThan(300);
    expect(await status(two, bobs.key!)).toBe(401);
  });

  it("refuses an OAuth access token on the other process once its application's secret is regenerated", async () => {
    const token = await oauthAccessToken(one, acme.sessionToken, acme.sessionToken, ['tags.read']);
    await warm(token.access_token);
    const { applicationId } = await tdb
      .db('oauth_tokens')
      .where({ accessTokenHash: sha256Hex(token.access_token) })
      .first('applicationId');
    await trpcAs(one, acme.sessionToken).oauthApplications.regenerateSecret.mutate({ id: applicationId as string });
    expect(await status(two, token.access_token)).toBe(401);
  });

  it('looks every credential up while its notification connection is down, and caches again once it is back', async () => {
    const { id, key } = await newKey();
    await warm(key);
    const listeners = () =>
      tdb.db('pg_stat_activity').whereRaw('datname = current_database()').where({ application_name: LISTENER_NAME }).pluck('pid');
    const before = await listeners();
    expect(before).toHaveLength(2);
    await tdb.db.raw('select pg_terminate_backend(pid) from pg_stat_activity where pid = any(?)', [before]);
    // Each process notices, drops its memory and listens again on a new connection.
    for (let i = 0; i < 100 && (await listeners()).filter((pid) => !before.includes(pid)).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await listeners()).filter((pid) => !before.includes(pid))).toHaveLength(2);
    await warm(key);
    await tdb.db('api_keys').where({ id }).delete();
    expect(await status(two, key)).toBe(401);
  });
});
