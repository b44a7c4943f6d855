import { insertApiKey, insertTransactions } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

const { ctx, send } = withTwoTeams();

describe('tags', () => {
  it('creates, lists by name, renames, refuses duplicates and deletes, per team', async () => {
    const a = await send('POST', '/tags', ctx.acme.sessionToken, { name: 'zeta', color: '#112233' });
    expect(a.status).toBe(201);
    const b = await (await send('POST', '/tags', ctx.acme.sessionToken, { name: 'alpha' })).json();
    expect((await send('POST', '/tags', ctx.acme.sessionToken, { name: 'alpha' })).status).toBe(409);
    expect((await send('POST', '/tags', ctx.other.sessionToken, { name: 'alpha' })).status).toBe(201); // ctx.other team, own namespace

    const list = await (await send('GET', '/tags', ctx.acme.sessionToken)).json();
    expect(list.data.map((t: { name: string }) => t.name)).toEqual(['alpha', 'zeta']);

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
    const bad = await send('POST', '/categories', ctx.acme.sessionToken, {
      name: 'Orphan',
      parentId: '00000000-0000-4000-8000-000000000000',
    });
    expect((await bad.json()).details).toEqual([{ field: 'parentId', message: 'no such category in your team' }]);

    expect((await send('DELETE', `/categories/${created.data.id}`, ctx.acme.sessionToken)).status).toBe(204);
    const row = await ctx.tdb.db('transactions').where({ providerTransactionId: tx.providerTransactionId }).first();
    expect(row.categorySlug).toBeNull();
    const after = await (await send('GET', '/categories', ctx.acme.sessionToken)).json();
    expect(after.data.find((c: { id: string }) => c.id === child.data.id).parentId).toBeNull();
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
      const res = await send('POST', '/customers', ctx.acme.sessionToken, {
        name: `Customer ${i}`,
        email: `c${i}@example.com`,
        tags: i === 0 ? [tag.id] : undefined,
      });
      expect(res.status).toBe(201);
      ids.push((await res.json()).data.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: UntypedJson = await (
        await send('GET', `/customers?pageSize=3${cursor ? `&cursor=${cursor}` : ''}`, ctx.acme.sessionToken)
      ).json();
      seen.push(...page.data.map((c: { id: string }) => c.id));
      cursor = page.meta.cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());

    const found = await (await send('GET', '/customers?q=c3%40example', ctx.acme.sessionToken)).json();
    expect(found.data.map((c: { name: string }) => c.name)).toEqual(['Customer 3']);
    const first = await (await send('GET', `/customers/${ids[0]}`, ctx.acme.sessionToken)).json();
    expect(first.data.tags).toEqual([{ id: tag.id, name: 'vip' }]);

    const updated = await (
      await send('PATCH', `/customers/${ids[1]}`, ctx.acme.sessionToken, { countryCode: 'DE', vatNumber: 'DE123456789' })
    ).json();
    expect(updated.data).toMatchObject({ countryCode: 'DE', vatNumber: 'DE123456789', name: 'Customer 1' });
    expect((await send('PATCH', `/customers/${ids[1]}`, ctx.acme.sessionToken, { countryCode: 'germany' })).status).toBe(400);
    expect((await send('GET', `/customers/${ids[1]}`, ctx.other.sessionToken)).status).toBe(404);
    expect((await (await send('GET', '/customers', ctx.other.sessionToken)).json()).data).toEqual([]);

    expect((await send('DELETE', `/customers/${ids[2]}`, ctx.acme.sessionToken)).status).toBe(204);
    expect((await send('GET', `/customers/${ids[2]}`, ctx.acme.sessionToken)).status).toBe(404);
  });

  it('offers the same operations over tRPC', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const tag = await trpc.tags.create.mutate({ name: 'customer-tag' });
    const created = await trpc.customers.create.mutate({ name: 'Via tRPC', addressLine1: 'Main Street 1', city: 'Berlin', tags: [tag.id] });
    expect(created).toMatchObject({ name: 'Via tRPC', addressLine1: 'Main Street 1', tags: [{ id: tag.id, name: tag.name }] });
    expect(await trpc.customers.getById.query({ id: created.id })).toEqual(created);

    const updated = await trpc.customers.update.mutate({ id: created.id, data: { addressLine2: 'Floor 2', tags: [] } });
    expect(updated).toMatchObject({ addressLine1: 'Main Street 1', addressLine2: 'Floor 2', tags: [] });
    const found = await trpc.customers.get.query({ q: 'via trpc', pageSize: 1 });
    expect(found.data.map((c) => c.id)).toEqual([created.id]);
    expect(found.meta).toEqual({ cursor: null, hasNextPage: false });

    expect(await trpcError(trpc.customers.update.mutate({ id: created.id, data: { countryCode: 'germany' } }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'data.countryCode', message: 'ISO 3166-1 alpha-2, upper case' }],
    });
    const other = trpcAs(ctx.api, ctx.other.sessionToken);
    expect(await trpcError(other.customers.getById.query({ id: created.id }))).toMatchObject({ httpStatus: 404, error: 'Not Found' });
    expect(await trpcError(other.customers.delete.mutate({ id: created.id }))).toMatchObject({ httpStatus: 404 });

    await trpc.customers.delete.mutate({ id: created.id });
    expect(await trpcError(trpc.customers.getById.query({ id: created.id }))).toMatchObject({ httpStatus: 404 });
  });
});

describe('tags and categories over tRPC', () => {
  it('creates, lists, renames and deletes tags; a duplicate is 409 and another team sees 404', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const tag = await trpc.tags.create.mutate({ name: 'trpc-tag', color: '#4f46e5' });
    expect(tag).toMatchObject({ name: 'trpc-tag', color: '#4f46e5' });
    expect(await trpcError(trpc.tags.create.mutate({ name: 'trpc-tag' }))).toMatchObject({
      httpStatus: 409,
      description: 'A tag named "trpc-tag" already exists',
    });
    expect(await trpcError(trpc.tags.create.mutate({ name: 'x', color: 'red' }))).toMatchObject({ httpStatus: 400 });

    const renamed = await trpc.tags.update.mutate({ id: tag.id, data: { name: 'trpc-renamed' } });
    expect(renamed).toEqual({ ...tag, name: 'trpc-renamed' });
    expect((await trpc.tags.get.query()).map((t) => t.name)).toContain('trpc-renamed');
    const other = trpcAs(ctx.api, ctx.other.sessionToken);
    expect(await trpcError(other.tags.update.mutate({ id: tag.id, data: { name: 'stolen' } }))).toMatchObject({ httpStatus: 404 });

    await trpc.tags.delete.mutate({ id: tag.id });
    expect((await trpc.tags.get.query()).map((t) => t.id)).not.toContain(tag.id);
    expect(await trpcError(trpc.tags.delete.mutate({ id: tag.id }))).toMatchObject({
      httpStatus: 404,
      description: `Tag ${tag.id} not found`,
    });
  });

  it('creates, lists, updates and deletes categories, guarded by the transactions scopes', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const parent = await trpc.categories.create.mutate({ name: 'Travel Costs' });
    expect(parent).toMatchObject({ slug: 'travel-costs', parentId: null, excluded: false });
    const child = await trpc.categories.create.mutate({ name: 'Trains', parentId: parent.id, taxRate: 7 });
    expect(await trpcError(trpc.categories.create.mutate({ name: 'travel costs' }))).toMatchObject({ httpStatus: 409 });
    expect(await trpcError(trpc.categories.update.mutate({ id: parent.id, data: { parentId: parent.id } }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'parentId', message: 'is the category itself' }],
    });

    const updated = await trpc.categories.update.mutate({ id: child.id, data: { excluded: true, color: '#00ff00' } });
    expect(updated).toMatchObject({ slug: 'trains', taxRate: 7, excluded: true, color: '#00ff00' });
    await trpc.categories.delete.mutate({ id: parent.id });
    const after = await trpc.categories.get.query();
    expect(after.find((c) => c.id === child.id)?.parentId).toBeNull();
    expect(after.find((c) => c.id === parent.id)).toBeUndefined();

    const other = trpcAs(ctx.api, ctx.other.sessionToken);
    expect(await trpcError(other.categories.delete.mutate({ id: child.id }))).toMatchObject({ httpStatus: 404 });
    const tagsOnly = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['tags.read']);
    expect(await trpcError(trpcAs(ctx.api, tagsOnly).categories.get.query())).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
  });
});
