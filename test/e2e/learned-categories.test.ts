import { storeBankBPage, type SyncedTransaction } from '../../shared/domain/bank-connections/sync';
import { CHAT_TOOLS } from '../../shared/domain/chat/tools';
import { statusAndBody } from '../support/api';
import { withTwoTeams } from '../support/two-teams';

/**
 * Learned categories end to end: a team's past choices categorise its new transactions (created
 * through the API, or a bank sync's page) above its threshold and suggest below it; the bank's
 * category is the last resort; each says why, in words and as `categorizedBy`; a user's and a rule's
 * choice stand; and one team's history never reaches another's suggestions.
 */
const { ctx, send } = withTwoTeams();
const call = (method: string, path: string, body?: unknown, token = ctx.acme.sessionToken) =>
  send(method, path, token, body).then(statusAndBody);
const db = () => ctx.tdb.db;

const history: string[] = [];
let account: string;

const CATEGORIES = [
  ['software', 'Software'],
  ['meals', 'Meals and entertainment'],
  ['marketing', 'Marketing'],
  ['equipment', 'Equipment'],
  ['office-supplies', 'Office supplies'],
  ['travel', 'Travel'],
];

beforeAll(async () => {
  for (const teamId of [ctx.acme.team.id, ctx.other.team.id]) {
    await db()('transaction_categories').insert(CATEGORIES.map(([slug, name]) => ({ teamId, slug, name })));
  }
  [account] = await db()('bank_accounts')
    .insert({ teamId: ctx.acme.team.id, name: 'Card', currency: 'EUR', manual: true })
    .returning<{ id: string }[]>('id')
    .then((r) => r.map((x) => x.id));
  const past = (teamId: string, name: string, categorySlug: string, amount: number, day: number, bankAccountId: string | null = null) => ({
    teamId,
    name,
    categorySlug,
    amount,
    bankAccountId,
    currency: 'EUR',
    date: `2026-0${1 + (day % 9)}-1${day % 10}`,
    manualFields: ['categorySlug'],
    fieldSources: { categorySlug: { by: 'user', ruleId: null, ruleName: null, explanation: 'Set by hand' } },
  });
  const acme = ctx.acme.team.id;
  const rows = await db()('transactions')
    .insert([
      past(acme, 'GitHub', 'software', -21, 1, account),
      past(acme, 'PAYPAL *GITHUB #1811', 'software', -21, 2, account),
      past(acme, 'GITHUB INC', 'software', -4, 3, account),
      past(acme, 'GitHub', 'software', -21, 4, account),
      past(acme, 'Figma', 'software', -15, 5, account),
    ])
    .returning<{ id: string }[]>('id');
  history.push(...rows.map((r) => r.id));
  // The other team flies a lot, and files GitHub under marketing: none of it may reach Acme.
  const other = ctx.other.team.id;
  await db()('transactions').insert([
    ...[1, 2, 3, 4, 5, 6].map((d) => past(other, 'LUFTHANSA', 'travel', -300, d)),
    ...[1, 2, 3, 4, 5, 6].map((d) => past(other, 'GitHub', 'marketing', -21, d)),
  ]);
});

const create = (body: object, token?: string) => call('POST', '/transactions', { date: '2026-11-02', currency: 'EUR', ...body }, token);

describe('learned categories', () => {
  it('applies a confident category to a new transaction and says why, in words and with the neighbours', async () => {
    const res = await create({ name: 'POS GITHUB #4411 BERLIN DE', amount: -21, bankAccountId: account });
    expect(res.status).toBe(201);
    const t = res.body.data;
    expect(t.category).toMatchObject({ slug: 'software' });
    expect(t.categorySource).toMatchObject({ by: 'learned', ruleId: null });
    expect(t.categorySource.explanation).toMatch(/^Learned from 4 similar transactions \(e\.g\. '.*GitHub.*'\), confidence 0\.\d\d$/i);
    expect(t.categorySource.confidence).toBeGreaterThanOrEqual(0.85);
    for (const n of t.categorySource.neighbours) expect(history).toContain(n.id);
    expect(t.suggestedCategory).toBeNull();
    const read = (await call('GET', `/transactions/${t.id}`)).body.data;
    expect(read.categorySource.explanation).toBe(t.categorySource.explanation);
  });

  it('only suggests below the team threshold, and applies once the team lowers it', async () => {
    const t = (await create({ name: 'FIGMA', amount: -15, bankAccountId: account })).body.data;
    expect(t.category).toBeNull();
    expect(t.categorySource).toBeNull();
    expect(t.suggestedCategory).toMatchObject({ slug: 'software', name: 'Software', neighbours: [{ id: history[4] }] });
    expect(t.suggestedCategory.confidence).toBeLessThan(0.85);
    expect(t.suggestedCategory.explanation).toMatch(/^Learned from 1 similar transaction \(e\.g\. 'Figma'\), confidence/);

    // A threshold out of range is refused and changes nothing.
    const bad = await call('PATCH', '/teams/current', { learnedCategoryThreshold: 1.5 });
    expect(bad.status).toBe(400);
    expect((await call('GET', '/teams/current')).body.data.learnedCategoryThreshold).toBe(0.85);
    expect((await call('PATCH', '/teams/current', { learnedCategoryThreshold: 0.5 })).body.data.learnedCategoryThreshold).toBe(0.5);
    try {
      const again = (await create({ name: 'FIGMA', amount: -15, bankAccountId: account })).body.data;
      expect(again).toMatchObject({ category: { slug: 'software' }, categorySource: { by: 'learned' }, suggestedCategory: null });
    } finally {
      await call('PATCH', '/teams/current', { learnedCategoryThreshold: 0.85 });
    }
  });

  it('categorises a bank sync page: learned first, then the bank category, and nothing from another team', async () => {
    const synced = (id: string, name: string, amount: number, providerCategory: string | null): SyncedTransaction => ({
      providerTransactionId: id,
      bankAccountId: account,
      date: '2026-11-10',
      name,
      description: null,
      method: 'card_purchase',
      amount,
      currency: 'EUR',
      status: 'posted',
      merchantName: null,
      counterpartyName: null,
      providerCategory,
    });
    await storeBankBPage(db(), ctx.acme.team.id, [
      synced('s-github', 'GITHUB.COM', -21, 'GENERAL_SERVICES'),
      synced('s-cafe', 'Café Einstein', -6.5, 'FOOD_AND_DRINK'),
      synced('s-lh', 'LUFTHANSA', -300, null),
      synced('s-misc', 'Unknown Vendor 77', -9, 'TRANSFER_OUT'),
    ]);
    const byId = async (providerTransactionId: string) => {
      const { id } = await db()('transactions').where({ teamId: ctx.acme.team.id, providerTransactionId }).first('id');
      return (await call('GET', `/transactions/${id}`)).body.data;
    };
    expect(await byId('s-github')).toMatchObject({ category: { slug: 'software' }, categorySource: { by: 'learned' } });
    expect(await byId('s-cafe')).toMatchObject({
      category: { slug: 'meals' },
      categorySource: {
        by: 'provider',
        providerCategory: 'FOOD_AND_DRINK',
        explanation: "The bank's category 'FOOD_AND_DRINK' maps to 'Meals and entertainment'",
      },
    });
    // The other team's six Lufthansa flights teach Acme nothing.
    expect(await byId('s-lh')).toMatchObject({ category: null, categorySource: null, suggestedCategory: null });
    expect(await byId('s-misc')).toMatchObject({ category: null, suggestedCategory: null });

    // And the other team's own GitHub goes to its own marketing, not Acme's software.
    const theirs = (await create({ name: 'GitHub', amount: -21 }, ctx.other.sessionToken)).body.data;
    expect(theirs).toMatchObject({ category: { slug: 'marketing' }, categorySource: { by: 'learned' } });
    for (const n of theirs.categorySource.neighbours) expect(history).not.toContain(n.id);
  });

  it('filters the list by how the category was set, and refuses an unknown way', async () => {
    const by = async (q: string) => {
      const res = await call('GET', `/transactions?pageSize=500&categorizedBy=${q}`);
      expect(res.status).toBe(200);
      return res.body.data as { id: string; categorySource: { by: string } | null }[];
    };
    const learned = await by('learned');
    expect(learned.length).toBeGreaterThanOrEqual(3);
    for (const t of learned) expect(t.categorySource?.by).toBe('learned');
    const provider = await by('provider');
    expect(provider.map((t) => t.categorySource?.by)).toEqual(['provider']);
    const userOrProvider = await by('user,provider');
    expect(userOrProvider.map((t) => t.id)).toEqual(expect.arrayContaining([...history, provider[0].id]));
    expect(userOrProvider.every((t) => ['user', 'provider'].includes(t.categorySource?.by ?? ''))).toBe(true);
    // Another team's list holds none of Acme's.
    const theirs = await call('GET', '/transactions?categorizedBy=user', undefined, ctx.other.sessionToken);
    expect(theirs.body.data.map((t: { id: string }) => t.id)).not.toEqual(expect.arrayContaining([history[0]]));

    const bad = await call('GET', '/transactions?categorizedBy=magic');
    expect(bad.status).toBe(400);
  });

  it('the chat assistant answers why a transaction is in its category', async () => {
    const tool = CHAT_TOOLS.find((t) => t.name === 'category_why')!;
    const ctxOf = { db: db(), teamId: ctx.acme.team.id, userId: ctx.acme.user.id, today: '2026-11-20' };
    const run = await tool.execute(ctxOf, { query: 'GITHUB.COM', category: 'Software' });
    expect(run.answer(1)).toMatch(/GITHUB\.COM .* is in Software: Learned from \d+ similar transactions .*confidence 0\.\d\d \[1\]\.$/);
    // Another team asking sees nothing of Acme's.
    const other = await tool.execute({ ...ctxOf, teamId: ctx.other.team.id, userId: ctx.other.user.id }, { query: 'GITHUB.COM' });
    expect(other.answer(1)).toBe('No such transaction was found [1].');
  });

  it("never overrides what the user gave, a rule's choice, or a later edit", async () => {
    const learned = (await create({ name: 'GitHub', amount: -21, bankAccountId: account })).body.data;
    expect(learned.categorySource.by).toBe('learned');
    const edited = (await call('PATCH', `/transactions/${learned.id}`, { categorySlug: 'office-supplies' })).body.data;
    expect(edited).toMatchObject({ category: { slug: 'office-supplies' }, categorySource: { by: 'user' } });

    const given = (await create({ name: 'GitHub', amount: -21, bankAccountId: account, categorySlug: 'equipment' })).body.data;
    expect(given).toMatchObject({ category: { slug: 'equipment' }, categorySource: { by: 'user' } });

    const rule = await call('POST', '/transaction-rules', {
      name: 'Sponsorship',
      conditions: { any: [{ all: [{ field: 'name', operator: 'contains', value: 'sponsor' }] }] },
      actions: { categorySlug: 'marketing' },
    });
    expect(rule.status).toBe(201);
    try {
      const ruled = (await create({ name: 'GitHub Sponsors', amount: -21, bankAccountId: account })).body.data;
      expect(ruled).toMatchObject({ category: { slug: 'marketing' }, categorySource: { by: 'rule', ruleName: 'Sponsorship' } });
    } finally {
      await call('DELETE', `/transaction-rules/${rule.body.data.id}`);
    }
  });
});
