import { requestFingerprint } from '../../shared/domain/idempotency/keys';
import { insertApiKey } from '../support/fixtures';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();

const post = (path: string, token: string, body: unknown, key?: string) =>
  send('POST', path, token, body, key ? { 'idempotency-key': key } : {});

const tagNames = async (token: string) =>
  ((await (await ctx.api.fetch('/tags', { token })).json()).data as { name: string }[]).map((t) => t.name);

describe('Idempotency-Key on every mutation', () => {
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

  it('replays a DELETE and a PATCH instead of running them again', async () => {
    const tag = (await (await post('/tags', ctx.acme.sessionToken, { name: 'Short-lived' })).json()).data as { id: string };
    const rename = { name: 'Renamed once' };
    const patched = await send('PATCH', `/tags/${tag.id}`, ctx.acme.sessionToken, rename, { 'idempotency-key': 'key-patch' });
    expect(patched.status).toBe(200);
    const patchedAgain = await send('PATCH', `/tags/${tag.id}`, ctx.acme.sessionToken, rename, { 'idempotency-key': 'key-patch' });
    expect(patchedAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(await patchedAgain.json()).toEqual(await patched.json());
    const otherBody = await send(
      'PATCH',
      `/tags/${tag.id}`,
      ctx.acme.sessionToken,
      { name: 'Renamed twice' },
      { 'idempotency-key': 'key-patch' },
    );
    expect(otherBody.status).toBe(422);

    const deleted = await send('DELETE', `/tags/${tag.id}`, ctx.acme.sessionToken, undefined, { 'idempotency-key': 'key-delete' });
    expect(deleted.status).toBe(204);
    // Run again it would be a 404: the retry gets the first answer.
    const retried = await send('DELETE', `/tags/${tag.id}`, ctx.acme.sessionToken, undefined, { 'idempotency-key': 'key-delete' });
    expect(retried.status).toBe(204);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect((await send('DELETE', `/tags/${tag.id}`, ctx.acme.sessionToken)).status).toBe(404);
  });

  it('replays a tRPC mutation, and refuses a key on a batch of several calls', async () => {
    const trpc = (procedures: string, body: unknown, key: string) =>
      ctx.api.fetch(`/trpc/${procedures}${procedures.includes(',') ? '?batch=1' : ''}`, {
        method: 'POST',
        token: ctx.acme.sessionToken,
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
    const first = await trpc('tags.create', { name: 'Over tRPC' }, 'key-trpc');
    expect(first.status).toBe(200);
    const retry = await trpc('tags.create', { name: 'Over tRPC' }, 'key-trpc');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await retry.json()).result.data).toEqual((await first.json()).result.data);
    expect((await tagNames(ctx.acme.sessionToken)).filter((n) => n === 'Over tRPC')).toHaveLength(1);
    expect((await trpc('tags.create', { name: 'Other over tRPC' }, 'key-trpc')).status).toBe(422);

    const batch = await trpc('tags.create,tags.create', { 0: { name: 'Batch A' }, 1: { name: 'Batch B' } }, 'key-batch');
    const answers = (await batch.json()) as { error?: { data: { httpStatus: number; description: string } } }[];
    expect(answers.map((a) => a.error?.data.httpStatus)).toEqual([400, 400]);
    expect(answers[0].error?.data.description).toMatch(/one call/);
    expect(await tagNames(ctx.acme.sessionToken)).not.toContain('Batch A');
  });

  it('lets a retry run a request whose process died with its key claimed, once the lease is over', async () => {
    const { db } = ctx.tdb;
    const claimed = (key: string, ageS: number) =>
      db.raw(
        `insert into idempotency_keys (team_id, credential, key, request_hash, created_at) values (?, ?, ?, ?, now() - make_interval(secs => ?))`,
        [ctx.acme.team.id, `session:${ctx.acme.user.id}`, key, requestFingerprint('POST', '/tags', { name: 'After a crash' }), ageS],
      );
    // Claimed a moment ago: the first request may still be running.
    await claimed('key-fresh', 1);
    expect((await post('/tags', ctx.acme.sessionToken, { name: 'After a crash' }, 'key-fresh')).status).toBe(409);
    // Claimed longer ago than the lease (2 minutes): its process died; the retry runs it, once.
    await claimed('key-abandoned', 150);
    const [a, b] = await Promise.all([
      post('/tags', ctx.acme.sessionToken, { name: 'After a crash' }, 'key-abandoned'),
      post('/tags', ctx.acme.sessionToken, { name: 'After a crash' }, 'key-abandoned'),
    ]);
    // One of the two runs it. The other finds it still running (409) or, when the first has already
    // finished, replays its answer: never a second run.
    const ran = [a, b].filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true');
    const other = [a, b].find((r) => !ran.includes(r));
    expect(ran).toHaveLength(1);
    expect(other && (other.status === 409 || other.headers.get('idempotent-replayed') === 'true')).toBe(true);
    expect((await tagNames(ctx.acme.sessionToken)).filter((n) => n === 'After a crash')).toHaveLength(1);
    const replay = await post('/tags', ctx.acme.sessionToken, { name: 'After a crash' }, 'key-abandoned');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});
