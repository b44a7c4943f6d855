import { insertApiKey, insertTransactions } from '../support/fixtures';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();


describe('tags', () => {
  it('creates, lists by name, renames, refuses duplicates and deletes, per team', async () => {
    const a = await send('POST', '/tags', ctx.acme.sessionToken, { name: 'zeta', color: '#112233' });
    expect(a.status).toBe(201);
    const b = await (await send('POST', '/tags', ctx.acme.sessionToken, { name: 'alpha' })).json();
    expect((await send('POST', '/tags', ctx.acme.sessionToken, { name: 'alpha' })).status).toBe(409);
    expect((await send('POST', '/tags', ctx.other.sessionToken, { name: 'alpha' })).status).toBe(201); // ctx.other team, own namespace

    const list = await (await send('GET', '/tags', ctx.acme.sessionToken)).json();
    expect(list.data.map((t: any) => t.name)).toEqual(['alpha', 'zeta']);

    const renamed = await send('PATCH', `/tags/${b.data.id}`, ctx.acme.sessionToken, { name: 'beta' });
    expect((await renamed.json()).data.name).toBe('beta');
    expect((await send('PATCH', `/tags/${b.data.id}`, ctx.other.sessionToken, { name: 'stolen' })).status).toBe(404);
    expect((await send('POST', '/tags', ctx.acme.sessionToken, { name: 'x', color: 'red' })).status).toBe(400);

    expect((await send('DELETE', `/tags/${b.data.id}`, ctx.acme.sessionToken)).status).toBe(204);
    expect((await (await send('GET', '/tags', ctx.acme.sessionToken)).json()).data).toHaveLength(1);
  });
});

describe('categories', () => {
  it('derives a slug, keeps it on rename, and uncategorises transactions when deleted', async () => {
    const created = await (await send('POST', '/categories', ctx.acme.sessionToken, { name: 'Office Supplies', taxRate: 20 })).json();
    expect(created.data).toMatchObject({ slug: 'office-supplies', taxRate: 20, excluded: false });
    const [tx] = await insertTransactions(ctx.tdb.db, ctx.acme.team.id, 1, '2026-05-01', { categorySlug: 'office-supplies' });
    const renamed = await (await send('PATCH', `/categories/${created.data.id}`, ctx.acme.sessionToken, { name: 'Office' })).json();
    expect(renamed.data).toMatchObject({ name: 'Office', slug: 'office-supplies' });
    expect((await send('POST', '/categories', ctx.acme.sessionToken, { name: 'office supplies' })).status).toBe(409);

    const child = await (await send('POST', '/categories', ctx.acme.sessionToken, { name: 'Paper', parentId: created.data.id })).json();
    const bad = await send('POST', '/categories', ctx.acme.sessionToken, { name: 'Orphan', parentId: '00000000-0000-4000-8000-000000000000' });
    expect((await bad.json()).details).toEqual([{ field: 'parentId', message: 'no such category in your team' }]);

    expect((await send('DELETE', `/categories/${created.data.id}`, ctx.acme.sessionToken)).status).toBe(204);
    const row = await ctx.tdb.db('transactions').where({ providerTransactionId: tx.providerTransactionId }).first();
    expect(row.categorySlug).toBeNull();
    const after = await (await send('GET', '/categories', ctx.acme.sessionToken)).json();
    expect(after.data.find((c: any) => c.id === child.data.id).parentId).toBeNull();
  });

  it('is guarded by the transactions scopes', async () => {
    const tagsOnly = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['tags.read']);
    expect((await send('GET', '/categories', tagsOnly)).status).toBe(403);
    expect((await send('GET', '/tags', tagsOnly)).status).toBe(200);
  });
});

describe('customers', () => {
  it('creates with tags, pages newest first, searches, updates and deletes within the team', async () => {
    const [tag] = await ctx.tdb.db('tags').insert({ teamId: ctx.acme.team.id, name: 'vip' }).returning('*');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await send('POST', '/customers', ctx.acme.sessionToken, { name: `Customer ${i}`, email: `c${i}@example.com`, tags: i === 0 ? [tag.id] : undefined });
      expect(res.status).toBe(201);
      ids.push((await res.json()).data.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await (await send('GET', `/customers?pageSize=3${cursor ? `&cursor=${cursor}` : ''}`, ctx.acme.sessionToken)).json();
      seen.push(...page.data.map((c: any) => c.id));
      cursor = page.meta.cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());

    const found = await (await send('GET', '/customers?q=c3%40example', ctx.acme.sessionToken)).json();
    expect(found.data.map((c: any) => c.name)).toEqual(['Customer 3']);
    const first = await (await send('GET', `/customers/${ids[0]}`, ctx.acme.sessionToken)).json();
    expect(first.data.tags).toEqual([{ id: tag.id, name: 'vip' }]);

    const updated = await (await send('PATCH', `/customers/${ids[1]}`, ctx.acme.sessionToken, { countryCode: 'DE', vatNumber: 'DE123' })).json();
    expect(updated.data).toMatchObject({ countryCode: 'DE', vatNumber: 'DE123', name: 'Customer 1' });
    expect((await send('PATCH', `/customers/${ids[1]}`, ctx.acme.sessionToken, { countryCode: 'germany' })).status).toBe(400);
    expect((await send('GET', `/customers/${ids[1]}`, ctx.other.sessionToken)).status).toBe(404);
    expect((await (await send('GET', '/customers', ctx.other.sessionToken)).json()).data).toEqual([]);

    expect((await send('DELETE', `/customers/${ids[2]}`, ctx.acme.sessionToken)).status).toBe(204);
    expect((await send('GET', `/customers/${ids[2]}`, ctx.acme.sessionToken)).status).toBe(404);
  });

  it('offers the same operations over tRPC', async () => {
    const post = (path: string, input: unknown) => send('POST', `/trpc/${path}`, ctx.acme.sessionToken, input).then((r) => r.json());
    const created = await post('customers.create', { name: 'Via tRPC' });
    const got = await ctx.api.fetch(`/trpc/customers.getById?input=${encodeURIComponent(JSON.stringify({ id: created.result.data.id }))}`, { token: ctx.acme.sessionToken });
    expect((await got.json()).result.data.name).toBe('Via tRPC');
    const tag = await post('tags.create', { name: 'from-trpc' });
    expect(tag.result.data.name).toBe('from-trpc');
  });
});
