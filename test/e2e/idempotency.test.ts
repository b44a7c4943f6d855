import { insertApiKey } from '../support/fixtures';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();

const post = (path: string, token: string, body: unknown, key?: string) =>
  send('POST', path, token, body, key ? { 'idempotency-key': key } : {});

const tagNames = async (token: string) =>
  ((await (await ctx.api.fetch('/tags', { token })).json()).data as { name: string }[]).map((t) => t.name);

describe('Idempotency-Key on REST POSTs', () => {
  it('replays the first response to a retry instead of creating twice', async () => {
    const first = await post('/tags', ctx.acme.sessionToken, { name: 'Travel' }, 'key-travel');
    expect(first.status).toBe(201);
    const retry = await post('/tags', ctx.acme.sessionToken, { name: 'Travel' }, 'key-travel');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
    expect((await tagNames(ctx.acme.sessionToken)).filter((n) => n === 'Travel')).toHaveLength(1);
  });

  it('refuses the same key with a different request with 422 and changes nothing', async () => {
    expect((await post('/tags', ctx.acme.sessionToken, { name: 'Rent' }, 'key-rent')).status).toBe(201);
    const other = await post('/tags', ctx.acme.sessionToken, { name: 'Food' }, 'key-rent');
    expect(other.status).toBe(422);
    expect((await other.json()).error).toBe('Unprocessable Entity');
    const elsewhere = await post('/categories', ctx.acme.sessionToken, { name: 'Rent' }, 'key-rent');
    expect(elsewhere.status).toBe(422);
    expect(await tagNames(ctx.acme.sessionToken)).not.toContain('Food');
  });

  it('keeps keys per credential', async () => {
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['tags.read', 'tags.write']);
    expect((await post('/tags', ctx.acme.sessionToken, { name: 'Shared key A' }, 'same-key')).status).toBe(201);
    const viaApiKey = await post('/tags', key, { name: 'Shared key B' }, 'same-key');
    expect(viaApiKey.status).toBe(201);
    expect(viaApiKey.headers.get('idempotent-replayed')).toBeNull();
    expect((await post('/tags', ctx.other.sessionToken, { name: 'Shared key A' }, 'same-key')).status).toBe(201);
  });

  it('keeps nothing from a failed request: the same key may be retried once the cause is fixed', async () => {
    const body = { date: '2026-05-01', name: 'Lunch', amount: -12, currency: 'EUR', categorySlug: 'meals' };
    const failed = await post('/transactions', ctx.acme.sessionToken, body, 'key-lunch');
    expect(failed.status).toBe(400);
    expect((await post('/categories', ctx.acme.sessionToken, { name: 'Meals', slug: 'meals' })).status).toBe(201);
    const retried = await post('/transactions', ctx.acme.sessionToken, body, 'key-lunch');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('creates once when the same request races itself', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => post('/tags', ctx.acme.sessionToken, { name: 'Raced' }, 'key-race').then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect((await tagNames(ctx.acme.sessionToken)).filter((n) => n === 'Raced')).toHaveLength(1);
  });

  it('refuses a malformed key with 400', async () => {
    const res = await post('/tags', ctx.acme.sessionToken, { name: 'Bad key' }, 'x'.repeat(300));
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([{ field: 'Idempotency-Key', message: 'printable ASCII, 1 to 255 characters' }]);
  });
});
