import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey, insertTransactions } from '../support/fixtures';

let tdb: TestDatabase;
let api: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
let other: Awaited<ReturnType<typeof createTeamAndOwner>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  api = await startTestApi(tdb.db);
  acme = await createTeamAndOwner(tdb.db, 'Acme');
  other = await createTeamAndOwner(tdb.db, 'Other');
  await insertTransactions(tdb.db, acme.team.id, 120);
  await insertTransactions(tdb.db, other.team.id, 5, '2026-07-15');
});
afterAll(async () => {
  await api?.stop();
  await tdb?.drop();
});

async function all(path: string, token: string) {
  const seen: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await api.fetch(`${path}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
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
    const { rows, pages } = await all('/transactions?pageSize=50', acme.sessionToken);
    expect(pages).toBe(3);
    expect(rows).toHaveLength(120);
    expect(new Set(rows.map((r) => r.id)).size).toBe(120);
    const keys = rows.map((r) => `${r.date}|${r.id}`);
    expect([...keys].sort().reverse()).toEqual(keys);
    expect(rows[0]).toMatchObject({ currency: 'EUR', status: 'posted', tags: [], attachments: [], account: null });
    expect(typeof rows[0].amount).toBe('number');
  });

  it('never shows another team\'s rows', async () => {
    const { rows } = await all('/transactions', other.sessionToken);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.date === '2026-07-15' || r.date === '2026-07-14' || r.date === '2026-07-13')).toBe(true);
  });

  it('reports the last page exactly (no empty extra page)', async () => {
    const res = await api.fetch('/transactions?pageSize=5', { token: other.sessionToken });
    const body = await res.json();
    expect(body.data).toHaveLength(5);
    expect(body.meta).toEqual({ cursor: null, hasNextPage: false });
  });

  it('filters by date range, amount, search and a repeated or comma-separated key', async () => {
    const byDate = await all('/transactions?from=2026-06-29&to=2026-06-30', acme.sessionToken);
    expect(byDate.rows).toHaveLength(4);
    const byAmount = await all('/transactions?amountMin=-3&amountMax=-2', acme.sessionToken);
    expect(byAmount.rows.map((r) => r.amount).sort((a, b) => a - b)).toEqual([-3, -2]);
    const search = await all('/transactions?q=merchant%2011', acme.sessionToken);
    expect(search.rows.map((r) => r.name).sort()).toEqual(['Merchant 11', 'Merchant 110', 'Merchant 111', 'Merchant 112', 'Merchant 113', 'Merchant 114', 'Merchant 115', 'Merchant 116', 'Merchant 117', 'Merchant 118', 'Merchant 119']);
    const repeated = await api.fetch('/transactions?statuses=posted&statuses=pending&pageSize=1', { token: acme.sessionToken });
    const comma = await api.fetch('/transactions?statuses=posted,pending&pageSize=1', { token: acme.sessionToken });
    expect(repeated.status).toBe(200);
    expect(comma.status).toBe(200);
    expect((await repeated.json()).data[0].id).toBe((await comma.json()).data[0].id);
  });

  it('rejects a forged cursor with 400', async () => {
    const res = await api.fetch('/transactions?cursor=not-a-cursor', { token: acme.sessionToken });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([{ field: 'cursor', message: 'not a cursor this API issued' }]);
  });

  it('needs transactions.read: 403 with the spec message otherwise', async () => {
    const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['invoices.read', 'transactions.write']);
    const res = await api.fetch('/transactions', { token: key });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'Forbidden',
      description: 'Insufficient permissions. Required scopes: transactions.read. Your scopes: invoices.read, transactions.write',
    });
    const reader = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['apis.read']);
    expect((await api.fetch('/transactions?pageSize=1', { token: reader })).status).toBe(200);
  });
});

describe('tRPC transactions.get', () => {
  it('returns the same page as REST through the same service', async () => {
    const rest = await (await api.fetch('/transactions?pageSize=7', { token: acme.sessionToken })).json();
    const input = encodeURIComponent(JSON.stringify({ pageSize: 7 }));
    const res = await api.fetch(`/trpc/transactions.get?input=${input}`, { token: acme.sessionToken });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.result.data).toEqual(rest);
  });

  it('batches several calls in one request', async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: { pageSize: 1 }, 1: { pageSize: 2 } }));
    const res = await api.fetch(`/trpc/transactions.get,transactions.get?batch=1&input=${input}`, { token: acme.sessionToken });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toHaveLength(2);
    expect(body[0].result.data.data).toHaveLength(1);
    expect(body[1].result.data.data).toHaveLength(2);
  });

  it('answers missing auth with 401 and our envelope words in data', async () => {
    const res = await api.fetch('/trpc/transactions.get');
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error.message).toBe('Authorization header required');
    expect(body.error.data).toMatchObject({ error: 'Unauthorized', description: 'Authorization header required', httpStatus: 401 });
  });

  it('answers bad input with 400 and per-field details', async () => {
    const input = encodeURIComponent(JSON.stringify({ pageSize: 9999 }));
    const res = await api.fetch(`/trpc/transactions.get?input=${input}`, { token: acme.sessionToken });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.data.details[0].field).toBe('pageSize');
  });
});
