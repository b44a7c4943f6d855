import { listTransactionsQuery, transactionSchema } from '../../shared/domain/transactions/schema';
import { createDb } from '../../shared/db/knex';
import { listTransactions, listTransactionsSql, type TextNarrowing } from '../../shared/domain/transactions/service';
import { sampledShare, textSample } from '../../shared/domain/transactions/text-filter';
import { weekOf } from '../../shared/domain/transactions/week-probe';
import { insertApiKey, insertTransactions } from '../support/fixtures';
import { planOf, withoutSequentialScans } from '../support/query-plan';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

const { ctx } = withTwoTeams();

beforeAll(async () => {
  await insertTransactions(ctx.tdb.db, ctx.acme.team.id, 120);
  await insertTransactions(ctx.tdb.db, ctx.other.team.id, 5, '2026-07-15');
});

async function all(path: string, token: string) {
  const seen: UntypedJson[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await ctx.api.fetch(`${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    expect(res.status).toBe(200);
    const body = await res.json();
    seen.push(...body.data);
    cursor = body.meta.cursor;
    expect(body.meta.hasNextPage).toBe(cursor !== null);
    pages++;
  } while (cursor);
  return { rows: seen, pages };
}

describe('GET /transactions', () => {
  it('pages through every transaction of the team, newest first, without gaps or repeats', async () => {
    const { rows, pages } = await all('/transactions?pageSize=50', ctx.acme.sessionToken);
    expect(pages).toBe(3);
    expect(rows).toHaveLength(120);
    expect(new Set(rows.map((r) => r.id)).size).toBe(120);
    const keys = rows.map((r) => `${r.date}|${r.id}`);
    expect([...keys].sort().reverse()).toEqual(keys);
    expect(rows[0]).toMatchObject({ currency: 'EUR', status: 'posted', tags: [], attachments: [], account: null });
    expect(typeof rows[0].amount).toBe('number');
  });

  it("never shows another team's rows", async () => {
    const { rows } = await all('/transactions', ctx.other.sessionToken);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.date === '2026-07-15' || r.date === '2026-07-14' || r.date === '2026-07-13')).toBe(true);
  });

  it('reports the last page exactly (no empty extra page)', async () => {
    const res = await ctx.api.fetch('/transactions?pageSize=5', { token: ctx.other.sessionToken });
    const body = await res.json();
    expect(body.data).toHaveLength(5);
    expect(body.meta).toEqual({ cursor: null, hasNextPage: false });
  });

  it('filters by date range, amount, search and a repeated or comma-separated key', async () => {
    const byDate = await all('/transactions?from=2026-06-29&to=2026-06-30', ctx.acme.sessionToken);
    expect(byDate.rows).toHaveLength(4);
    const byAmount = await all('/transactions?amountMin=-3&amountMax=-2', ctx.acme.sessionToken);
    expect(byAmount.rows.map((r) => r.amount).sort((a, b) => a - b)).toEqual([-3, -2]);
    const search = await all('/transactions?q=merchant%2011', ctx.acme.sessionToken);
    expect(search.rows.map((r) => r.name).sort()).toEqual([
      'Merchant 11',
      'Merchant 110',
      'Merchant 111',
      'Merchant 112',
      'Merchant 113',
      'Merchant 114',
      'Merchant 115',
      'Merchant 116',
      'Merchant 117',
      'Merchant 118',
      'Merchant 119',
    ]);
    const repeated = await ctx.api.fetch('/transactions?statuses=posted&statuses=pending&pageSize=1', { token: ctx.acme.sessionToken });
    const comma = await ctx.api.fetch('/transactions?statuses=posted,pending&pageSize=1', { token: ctx.acme.sessionToken });
    expect(repeated.status).toBe(200);
    expect(comma.status).toBe(200);
    expect((await repeated.json()).data[0].id).toBe((await comma.json()).data[0].id);
  });

  it('finds q= text in the name, description, counterparty or merchant, literally and never across fields', async () => {
    const db = ctx.tdb.db;
    const teamId = ctx.acme.team.id;
    const rows = [
      { name: 'Plain name', description: 'Quarterly zephyr retainer', providerTransactionId: 'q-desc' },
      { name: 'Plain name', counterpartyName: 'Zephyr GmbH', providerTransactionId: 'q-counterparty' },
      { name: 'Plain name', merchantName: 'ZEPHYR store', providerTransactionId: 'q-merchant' },
      { name: 'Alpha', description: 'Beta', providerTransactionId: 'q-apart' },
      { name: '100% zephyr_fee', providerTransactionId: 'q-literal' },
    ];
    const ids = (
      await db('transactions')
        .insert(rows.map((r) => ({ teamId, date: '2026-01-02', amount: -1, currency: 'EUR', ...r })))
        .returning('providerTransactionId')
    ).map((r: { providerTransactionId: string }) => r.providerTransactionId);
    try {
      const found = async (q: string) =>
        (await all(`/transactions?q=${encodeURIComponent(q)}`, ctx.acme.sessionToken)).rows
          .map((r) => `${String(r.name)}|${String(r.description ?? '')}`)
          .sort();
      expect(await found('zephyr')).toHaveLength(4);
      expect(await found('alpha beta')).toEqual([]); // the name ends where the description starts
      expect(await found('alpha\nbeta')).toEqual([]); // nor where the indexed text joins them (migration 0080)
      expect(await found('ph')).toHaveLength(5); // too short for a trigram: walked, not looked up
      expect(await found('% zephyr_')).toEqual(['100% zephyr_fee|']); // % and _ are text, not wildcards
      // Another team's rows with the word stay unseen.
      expect((await all('/transactions?q=zephyr', ctx.other.sessionToken)).rows).toEqual([]);
    } finally {
      await db('transactions').where({ teamId }).whereIn('providerTransactionId', ids).delete();
    }
  });

  it('pages q= matches spread over years newest first, week window after window, within from and to', async () => {
    const db = ctx.tdb.db;
    const teamId = ctx.acme.team.id;
    // 600 rows over 1,200 days, one in three naming the word (in the middle of a longer one once in
    // two), and newer than them 1,500 rows without it: the first weeks probed find nothing.
    await db.raw(
      `insert into transactions (team_id, date, name, amount, currency, provider_transaction_id)
       select ?, date '2026-10-31' - (g % 100), 'Recent ' || g, -1, 'EUR', 'spread-recent-' || g from generate_series(1, 1500) g`,
      [teamId],
    );
    await db.raw(
      `insert into transactions (team_id, date, name, description, amount, currency, provider_transaction_id)
       select ?, date '2026-06-30' - g * 2, case when g % 3 = 0 then 'Spread ' || g else 'Other ' || g end,
              case when g % 3 = 0 and g % 2 = 0 then 'unzephyrlike' when g % 3 = 0 then 'zephyr' end, -1, 'EUR', 'spread-' || g
       from generate_series(1, 600) g`,
      [teamId],
    );
    try {
      const expected = async (from?: string, to?: string) =>
        (
          await db('transactions')
            .where({ teamId })
            .whereILike('description', '%zephyr%')
            .modify((q) => {
              if (from) q.where('date', '>=', from);
              if (to) q.where('date', '<=', to);
            })
            .orderBy([
              { column: 'date', order: 'desc' },
              { column: 'id', order: 'desc' },
            ])
            .select('id')
        ).map((r: { id: string }) => r.id);
      const { rows, pages } = await all('/transactions?q=Zephyr&pageSize=7', ctx.acme.sessionToken);
      expect(rows.map((r) => r.id)).toEqual(await expected());
      expect(pages).toBe(Math.ceil(200 / 7));
      const bounded = await all('/transactions?q=zephyr&pageSize=9&from=2024-01-01&to=2025-12-31', ctx.acme.sessionToken);
      expect(bounded.rows.map((r) => r.id)).toEqual(await expected('2024-01-01', '2025-12-31'));
      expect((await all('/transactions?q=EPHYRL', ctx.acme.sessionToken)).rows).toHaveLength(100);
    } finally {
      await db('transactions').where({ teamId }).whereLike('providerTransactionId', 'spread-%').delete();
    }
  });

  it('walks the rows for a text most rows hold, and probes the weeks past the newest rows where they do not hold it', async () => {
    const teamId = ctx.acme.team.id;
    // Its own knex, so the statistics read after this ANALYZE are not an earlier test's cached ones.
    const db = createDb({ url: ctx.tdb.url, poolMax: 2 });
    // 2,000 older rows hold both words; 20 of the newest 1,000 hold "hollyhock" and none "larkspur".
    // "hollyhock" is walked past the newest rows (20 there: the rest of a page is near), "larkspur"
    // is probed for in the weeks before them (none there: walking on might read the whole team).
    await db.raw(
      `insert into transactions (team_id, date, name, amount, currency, provider_transaction_id)
       select ?::uuid, date '2026-10-31' - (g / 40), case when g % 50 = 0 then 'Hollyhock ' || g else 'Newer ' || g end, -1, 'EUR', 'walk-' || g
       from generate_series(1, 1000) g
       union all
       select ?::uuid, date '2026-05-31' - (g / 5), 'Hollyhock larkspur ' || g, -1, 'EUR', 'walk-old-' || g from generate_series(1, 2000) g`,
      [teamId, teamId],
    );
    try {
      await db.raw('analyze transactions');
      const sample = await textSample(db);
      expect(sampledShare('hollyhock', sample)).toBeGreaterThanOrEqual(0.05);
      expect(sampledShare('larkspur', sample)).toBeGreaterThanOrEqual(0.05);
      const expected = async (word: string) =>
        (
          await db('transactions')
            .where({ teamId })
            .whereILike('name', `%${word}%`)
            .orderBy([
              { column: 'date', order: 'desc' },
              { column: 'id', order: 'desc' },
            ])
            .limit(60)
            .select('id')
        ).map((r: { id: string }) => r.id);
      for (const word of ['hollyhock', 'larkspur']) {
        const page = await listTransactions(db, teamId, listTransactionsQuery.parse({ q: word, pageSize: 50 }));
        expect(page.data.map((r) => r.id)).toEqual((await expected(word)).slice(0, 50));
        const next = await listTransactions(db, teamId, listTransactionsQuery.parse({ q: word, pageSize: 10, cursor: page.meta.cursor }));
        expect(next.data.map((r) => r.id)).toEqual((await expected(word)).slice(50, 60));
      }
    } finally {
      await db('transactions').where({ teamId }).whereLike('providerTransactionId', 'walk-%').delete();
      await db.destroy();
    }
  });

  it("never shows the rows of a team whose id starts as the caller's does (the week keys hold 8 of its hex digits)", async () => {
    const db = ctx.tdb.db;
    const twin = `${ctx.acme.team.id.slice(0, 8)}-0000-4000-8000-${'0'.repeat(12)}`;
    await db('teams').insert({ id: twin, name: 'Twin prefix', inboxId: 'twin-prefix' });
    try {
      await db('transactions').insert({ teamId: twin, date: '2026-01-02', name: 'Quokkarium fee', amount: -1, currency: 'EUR' });
      expect(
        await db('transactions')
          .where({ teamId: twin })
          .select(db.raw('transaction_week_trigrams(team_id, date, name, null, null, null) as keys')),
      ).toEqual([{ keys: expect.arrayContaining([`${ctx.acme.team.id.slice(0, 8)}:${weekOf('2026-01-02')}:kka`]) }]);
      expect((await all('/transactions?q=quokkarium', ctx.acme.sessionToken)).rows).toEqual([]);
    } finally {
      await db('teams').where({ id: twin }).delete();
    }
  });

  it("keys each row's trigrams by its team and week as the list computes them, without padded trigrams", async () => {
    const { rows } = await ctx.tdb.db.raw<{ rows: { date: string; keys: string[] }[] }>(
      `select d::text as date, transaction_week_trigrams(?, d, 'Merchant 417', null, 'Über', null) as keys
       from unnest(array['1969-12-28', '1970-01-05', '2026-11-26']::date[]) d`,
      [ctx.acme.team.id],
    );
    const tag = ctx.acme.team.id.slice(0, 8);
    for (const { date, keys } of rows) {
      expect(keys).toEqual(
        expect.arrayContaining([`${tag}:${weekOf(date)}:417`, `${tag}:${weekOf(date)}:mer`, `${tag}:${weekOf(date)}:ber`]),
      );
      expect(keys.filter((k) => k.includes(' '))).toEqual([]);
      expect(keys.every((k) => k.startsWith(`${tag}:${weekOf(date)}:`))).toBe(true);
    }
  });

  it('narrows q= through the week trigram index, and skips it for text too short to have a trigram', async () => {
    // Among twenty thousand rows, where walking the team's newest rows no longer looks cheaper.
    const plans = await withoutSequentialScans(ctx.tdb.db, async (trx) => {
      await trx.raw(
        `insert into transactions (team_id, date, name, amount, currency)
         select ?, date '2026-01-01' - (g % 400), 'Filler ' || g, -1, 'EUR' from generate_series(1, 20000) g`,
        [ctx.acme.team.id],
      );
      await trx.raw('analyze transactions');
      const planFor = (q: string, narrowing?: TextNarrowing) =>
        planOf(trx, listTransactionsSql(trx, ctx.acme.team.id, listTransactionsQuery.parse({ q }), narrowing));
      const weeks = { team: ctx.acme.team.id, trigrams: ['417'], from: weekOf('2025-12-01'), to: weekOf('2026-01-01') };
      return {
        weeks: await planFor('merchant 417', { weeks }),
        short: await planFor('é-1'),
      };
    });
    expect(plans.weeks).toContain('transactions_week_trigrams_idx');
    expect(plans.short).not.toMatch(/trigrams_idx|trgm_idx/);
  });

  it('rejects a forged cursor with 400', async () => {
    const res = await ctx.api.fetch('/transactions?cursor=not-a-cursor', { token: ctx.acme.sessionToken });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([{ field: 'cursor', message: 'not a cursor this API issued' }]);
    // Well-formed, but not a date and an id: refused before PostgreSQL would fail to cast it (a 500).
    const forged = Buffer.from(JSON.stringify(['yesterday', 'me'])).toString('base64url');
    for (const q of ['', '&q=merchant']) {
      const again = await ctx.api.fetch(`/transactions?cursor=${forged}${q}`, { token: ctx.acme.sessionToken });
      expect(again.status).toBe(400);
    }
  });

  it('needs transactions.read: 403 with the spec message otherwise', async () => {
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, [
      'invoices.read',
      'transactions.write',
    ]);
    const res = await ctx.api.fetch('/transactions', { token: key });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'Forbidden',
      description: 'Insufficient permissions. Required scopes: transactions.read. Your scopes: invoices.read, transactions.write',
    });
    const reader = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['apis.read']);
    expect((await ctx.api.fetch('/transactions?pageSize=1', { token: reader })).status).toBe(200);
  });
});

describe('tRPC transactions.get', () => {
  it('returns the same page as REST through the same service', async () => {
    const rest = await (await ctx.api.fetch('/transactions?pageSize=7', { token: ctx.acme.sessionToken })).json();
    const input = encodeURIComponent(JSON.stringify({ pageSize: 7 }));
    const res = await ctx.api.fetch(`/trpc/transactions.get?input=${input}`, { token: ctx.acme.sessionToken });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.result.data).toEqual(rest);
  });

  it('batches several calls in one request', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: { pageSize: 1 }, 1: { pageSize: 2 } }));
    const res = await ctx.api.fetch(`/trpc/transactions.get,transactions.get?batch=1&input=${input}`, { token: ctx.acme.sessionToken });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toHaveLength(2);
    expect(body[0].result.data.data).toHaveLength(1);
    expect(body[1].result.data.data).toHaveLength(2);
  });

  it('answers missing auth with 401 and our envelope words in data', async () => {
    const res = await ctx.api.fetch('/trpc/transactions.get');
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error.message).toBe('Authorization header required');
    expect(body.error.data).toMatchObject({ error: 'Unauthorized', description: 'Authorization header required', httpStatus: 401 });
  });

  it('answers bad input with 400 and per-field details', async () => {
    const input = encodeURIComponent(JSON.stringify({ pageSize: 9999 }));
    const res = await ctx.api.fetch(`/trpc/transactions.get?input=${input}`, { token: ctx.acme.sessionToken });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.data.details[0].field).toBe('pageSize');
  });
});

describe('transactions over the typed tRPC client', () => {
  it("lists the same pages as REST, filtered and resumed from the cursor, and only the caller's team", async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const rest = await (await ctx.api.fetch('/transactions?pageSize=7', { token: ctx.acme.sessionToken })).json();
    const first = await trpc.transactions.get.query({ pageSize: 7 });
    expect(first).toEqual(rest);
    expect(first.meta.hasNextPage).toBe(true);
    const second = await trpc.transactions.get.query({ pageSize: 7, cursor: first.meta.cursor ?? undefined });
    expect(second.data).toHaveLength(7);
    expect(second.data.filter((t) => first.data.some((f) => f.id === t.id))).toEqual([]);
    expect(second.data[0].date <= first.data[6].date).toBe(true);

    const byAmount = await trpc.transactions.get.query({ amountMin: -3, amountMax: -2, statuses: ['posted'] });
    expect(byAmount.data.map((t) => t.amount).sort((a, b) => a - b)).toEqual([-3, -2]);
    const theirs = await trpcAs(ctx.api, ctx.other.sessionToken).transactions.get.query({ pageSize: 500 });
    expect(theirs.data).toHaveLength(5);
    expect(theirs.meta).toEqual({ cursor: null, hasNextPage: false });
  });

  it("hides another team's transaction behind 404, refuses invalid input with 400 and a missing scope with 403", async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const created = await trpc.transactions.create.mutate({ date: '2026-07-04', name: 'Parking', amount: -4, currency: 'EUR' });
    const other = trpcAs(ctx.api, ctx.other.sessionToken);
    for (const call of [
      other.transactions.getById.query({ id: created.id }),
      other.transactions.update.mutate({ id: created.id, data: { note: 'not yours' } }),
      other.transactions.delete.mutate({ id: created.id }),
    ])
      expect(await trpcError(call)).toMatchObject({ httpStatus: 404, description: `Transaction ${created.id} not found` });
    // Read by id, a transaction also lists what was merged into it (nothing, for a new one).
    expect(await trpc.transactions.getById.query({ id: created.id })).toEqual({ ...created, mergedFrom: [] });

    expect(await trpcError(trpc.transactions.get.query({ pageSize: 9999 }))).toMatchObject({
      httpStatus: 400,
      details: [expect.objectContaining({ field: 'pageSize' })],
    });
    const bankTx = await ctx.tdb.db('transactions').where({ teamId: ctx.acme.team.id, manual: false }).first();
    expect(await trpcError(trpc.transactions.update.mutate({ id: bankTx.id, data: { amount: 1 } }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'amount', message: 'cannot be changed on a bank-synced transaction' }],
    });
    expect(await trpcError(trpc.transactions.delete.mutate({ id: bankTx.id }))).toMatchObject({ httpStatus: 409 });

    const writer = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['transactions.write']);
    expect(await trpcError(trpcAs(ctx.api, writer).transactions.get.query({}))).toMatchObject({
      httpStatus: 403,
      description: 'Insufficient permissions. Required scopes: transactions.read. Your scopes: transactions.write',
    });
    const reader = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['apis.read']);
    expect(await trpcError(trpcAs(ctx.api, reader).transactions.delete.mutate({ id: created.id }))).toMatchObject({ httpStatus: 403 });
    await trpc.transactions.delete.mutate({ id: created.id });
  });
});

describe('writing transactions', () => {
  const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('creates a manual transaction with tags and reads it back (REST)', async () => {
    const [tag] = await ctx.tdb.db('tags').insert({ teamId: ctx.acme.team.id, name: 'travel' }).returning('*');
    await ctx.tdb.db('transaction_categories').insert({ teamId: ctx.acme.team.id, name: 'Travel', slug: 'travel' });
    const res = await ctx.api.fetch('/transactions', {
      method: 'POST',
      token: ctx.acme.sessionToken,
      ...json({ date: '2026-07-01', name: 'Train ticket', amount: -89.9, currency: 'EUR', tags: [tag.id], categorySlug: 'travel' }),
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({
      name: 'Train ticket',
      amount: -89.9,
      manual: true,
      status: 'posted',
      method: 'other',
      tags: [{ id: tag.id, name: 'travel' }],
      category: { slug: 'travel', name: 'Travel' },
    });
    const got = await (await ctx.api.fetch(`/transactions/${data.id}`, { token: ctx.acme.sessionToken })).json();
    expect(got.data).toEqual({ ...data, mergedFrom: [] });
    expect(Object.keys(data).sort()).toEqual(Object.keys(transactionSchema.shape).sort());
  });

  it('shows timestamps as ISO 8601 UTC and attachments with their type and size, as stored', async () => {
    const stamp = new Date('2030-06-15T08:09:10.123Z');
    const [row] = await ctx.tdb
      .db('transactions')
      .insert({
        teamId: ctx.acme.team.id,
        date: '2031-01-02',
        name: 'Stamped',
        amount: -1,
        currency: 'EUR',
        createdAt: stamp,
        updatedAt: stamp,
      })
      .returning('id');
    await ctx.tdb.db('transaction_attachments').insert({
      teamId: ctx.acme.team.id,
      transactionId: row.id,
      name: 'r.pdf',
      mimeType: 'application/pdf',
      size: 1234,
      storageKey: 'k/r.pdf',
    });
    const { data } = await (await ctx.api.fetch(`/transactions/${row.id}`, { token: ctx.acme.sessionToken })).json();
    expect(data.createdAt).toBe('2030-06-15T08:09:10.123Z');
    expect(data.updatedAt).toBe('2030-06-15T08:09:10.123Z');
    expect(data.attachments).toEqual([{ id: expect.any(String), name: 'r.pdf', mimeType: 'application/pdf', size: 1234 }]);
    const listed = await (await ctx.api.fetch('/transactions?pageSize=1', { token: ctx.acme.sessionToken })).json();
    const { mergedFrom, ...asListed } = data;
    expect(mergedFrom).toEqual([]);
    expect(listed.data[0]).toEqual(asListed);
  });

  it('rejects references to another team and bad fields, storing nothing', async () => {
    const [foreignTag] = await ctx.tdb.db('tags').insert({ teamId: ctx.other.team.id, name: 'theirs' }).returning('*');
    const before = await ctx.tdb.db('transactions').where({ teamId: ctx.acme.team.id }).count('* as n').first();
    const res = await ctx.api.fetch('/transactions', {
      method: 'POST',
      token: ctx.acme.sessionToken,
      ...json({
        date: '2026-07-01',
        name: 'X',
        amount: -1,
        currency: 'EUR',
        tags: [foreignTag.id],
        bankAccountId: '00000000-0000-4000-8000-000000000000',
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).details.map((d: { field: string }) => d.field).sort()).toEqual(['bankAccountId', 'tags']);
    const invalid = await ctx.api.fetch('/transactions', {
      method: 'POST',
      token: ctx.acme.sessionToken,
      ...json({ date: '1 July', name: '', amount: 'ten', currency: 'eur', extra: 1 }),
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).details.map((d: { field: string }) => d.field).sort()).toEqual(
      expect.arrayContaining(['amount', 'currency', 'date', 'name']),
    );
    const after = await ctx.tdb.db('transactions').where({ teamId: ctx.acme.team.id }).count('* as n').first();
    expect(after).toEqual(before);
  });

  it('keeps bank-owned fields of a synced transaction and lets it be excluded instead of deleted', async () => {
    const bankTx = await ctx.tdb.db('transactions').where({ teamId: ctx.acme.team.id, manual: false }).first();
    const locked = await ctx.api.fetch(`/transactions/${bankTx.id}`, {
      method: 'PATCH',
      token: ctx.acme.sessionToken,
      ...json({ amount: 1 }),
    });
    expect(locked.status).toBe(400);
    expect((await locked.json()).details).toEqual([{ field: 'amount', message: 'cannot be changed on a bank-synced transaction' }]);

    const del = await ctx.api.fetch(`/transactions/${bankTx.id}`, { method: 'DELETE', token: ctx.acme.sessionToken });
    expect(del.status).toBe(409);

    const excluded = await ctx.api.fetch(`/transactions/${bankTx.id}`, {
      method: 'PATCH',
      token: ctx.acme.sessionToken,
      ...json({ status: 'excluded', note: 'duplicate' }),
    });
    expect(excluded.status).toBe(200);
    expect((await excluded.json()).data).toMatchObject({ status: 'excluded', note: 'duplicate', amount: bankTx.amount });
    const { rows } = await all('/transactions?pageSize=500', ctx.acme.sessionToken);
    expect(rows.find((r) => r.id === bankTx.id)).toBeUndefined();
    const { rows: shown } = await all('/transactions?statuses=excluded', ctx.acme.sessionToken);
    expect(shown.map((r) => r.id)).toEqual([bankTx.id]);
  });

  it("deletes a manual transaction, and hides other teams' rows behind 404", async () => {
    const created = await (
      await ctx.api.fetch('/transactions', {
        method: 'POST',
        token: ctx.acme.sessionToken,
        ...json({ date: '2026-07-02', name: 'Cash', amount: -5, currency: 'EUR' }),
      })
    ).json();
    expect((await ctx.api.fetch(`/transactions/${created.data.id}`, { token: ctx.other.sessionToken })).status).toBe(404);
    expect((await ctx.api.fetch(`/transactions/${created.data.id}`, { method: 'DELETE', token: ctx.other.sessionToken })).status).toBe(404);
    const del = await ctx.api.fetch(`/transactions/${created.data.id}`, { method: 'DELETE', token: ctx.acme.sessionToken });
    expect(del.status).toBe(204);
    expect((await ctx.api.fetch(`/transactions/${created.data.id}`, { token: ctx.acme.sessionToken })).status).toBe(404);
  });

  it('needs transactions.write to write, even with every read scope', async () => {
    const reader = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['apis.read']);
    const res = await ctx.api.fetch('/transactions', {
      method: 'POST',
      token: reader,
      ...json({ date: '2026-07-02', name: 'Nope', amount: -5, currency: 'EUR' }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).description).toContain('Required scopes: transactions.write');
  });

  it('offers the same writes over tRPC', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const created = await trpc.transactions.create.mutate({ date: '2026-07-03', name: 'Taxi', amount: -23, currency: 'EUR' });
    expect(created).toMatchObject({ name: 'Taxi', amount: -23, manual: true });
    const updated = await trpc.transactions.update.mutate({ id: created.id, data: { note: 'airport' } });
    expect(updated.note).toBe('airport');
    expect((await trpc.transactions.getById.query({ id: created.id })).note).toBe('airport');
    await trpc.transactions.delete.mutate({ id: created.id });
    expect(await trpcError(trpc.transactions.update.mutate({ id: created.id, data: { note: 'x' } }))).toMatchObject({
      httpStatus: 404,
      error: 'Not Found',
    });
  });
});
