import { BankConnection } from '../../shared/db/models';
import { categoriseAhead, storeBankAPage, type SyncedTransaction } from '../../shared/domain/bank-connections/sync';
import { loadCategoriser } from '../../shared/domain/learned-categories/apply';
import { createRuleBody } from '../../shared/domain/transaction-rules/schema';
import { createRule } from '../../shared/domain/transaction-rules/service';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

/**
 * A bank-a page's new rows are categorised as the page arrives (categoriseAhead), before the page
 * before it is written; storing the page then inserts them as categorised, under the ids chosen
 * then. What the early categories must never do: override a row the team already has, or stand
 * for a version of a row the page replaced.
 */
const tdb = withTestDatabase();

let team: { id: string };
let conn: BankConnection;
let account: string;
let tag: string;
const categoriser = () => loadCategoriser(tdb.db, team.id);

beforeAll(async () => {
  ({ team } = await createTeamAndOwner(tdb.db, 'Ahead'));
  await tdb.db('transaction_categories').insert([
    { teamId: team.id, slug: 'software', name: 'Software' },
    { teamId: team.id, slug: 'travel', name: 'Travel' },
  ]);
  [{ id: tag }] = await tdb.db('tags').insert({ teamId: team.id, name: 'saas' }).returning('id');
  [{ id: account }] = await tdb
    .db('bank_accounts')
    .insert({ teamId: team.id, name: 'Card', currency: 'EUR', manual: false })
    .returning('id');
  conn = await BankConnection.query(tdb.db).insert({ teamId: team.id, provider: 'bank-a', referenceId: 'item-ahead' });
  await createRule(
    tdb.db,
    team.id,
    createRuleBody.parse({
      name: 'SaaS',
      conditions: { any: [{ all: [{ field: 'name', operator: 'contains', value: 'github' }] }] },
      actions: { categorySlug: 'software', addTags: [tag] },
    }),
  );
});

const row = (providerTransactionId: string, name: string): SyncedTransaction => ({
  providerTransactionId,
  bankAccountId: account,
  date: '2026-11-10',
  name,
  description: name.toUpperCase(),
  method: 'card_purchase',
  amount: -21,
  currency: 'EUR',
  status: 'posted',
  merchantName: name,
  counterpartyName: name,
  providerCategory: null,
});

const stored = (providerTransactionId: string) =>
  tdb.db('transactions').where({ teamId: team.id, providerTransactionId }).first('id', 'name', 'categorySlug', 'fieldSources');
const tagsOf = async (id: string) => (await tdb.db('transaction_tags').where({ transactionId: id }).select('tagId')).map((t) => t.tagId);

describe('a page categorised as it arrives', () => {
  it('is stored as categorised, under the ids chosen ahead, with its tags', async () => {
    const rows = [row('p-1', 'GitHub'), row('p-2', 'Corner shop')];
    const ahead = await categoriseAhead(rows, categoriser);
    expect(ahead?.get('p-1')?.categorised).toMatchObject({ categorySlug: 'software', tags: [tag] });

    await storeBankAPage(tdb.db, conn, { rows, removed: [], cursor: 'c-1', ahead }, categoriser);
    const github = await stored('p-1');
    expect(github).toMatchObject({ id: ahead!.get('p-1')!.id, categorySlug: 'software' });
    expect(github.fieldSources.categorySlug).toMatchObject({ by: 'rule', ruleName: 'SaaS' });
    expect(await tagsOf(github.id)).toEqual([tag]);
    expect(await stored('p-2')).toMatchObject({ id: ahead!.get('p-2')!.id, categorySlug: null });
    // One insert each: the early categories wrote no row of their own.
    expect(await tdb.db('transactions').where({ teamId: team.id }).whereIn('providerTransactionId', ['p-1', 'p-2'])).toHaveLength(2);
  });

  it('leaves a row the team already has as it is: a page fetched again does not categorise it again', async () => {
    await storeBankAPage(tdb.db, conn, { rows: [row('p-known', 'Flight')], removed: [], cursor: 'c-2' }, categoriser);
    const before = await stored('p-known');
    await tdb
      .db('transactions')
      .where({ id: before.id })
      .update({ categorySlug: 'travel', manualFields: ['categorySlug'] });

    // The same transaction again, now named as the rule matches, categorised ahead as if new.
    const again = [row('p-known', 'GitHub')];
    const ahead = await categoriseAhead(again, categoriser);
    expect(ahead?.get('p-known')?.categorised.categorySlug).toBe('software');
    await storeBankAPage(tdb.db, conn, { rows: again, removed: [], cursor: 'c-3', ahead }, categoriser);

    expect(await stored('p-known')).toMatchObject({ id: before.id, name: 'GitHub', categorySlug: 'travel' });
    expect(await tagsOf(before.id)).toEqual([]);
  });

  it('categorises the version of a row the page stores, when the page names it again after its early categories', async () => {
    const added = row('p-renamed', 'GitHub');
    const ahead = await categoriseAhead([added], categoriser);
    // bank-a lists the transaction as added and then as modified in one page: the later version is stored.
    await storeBankAPage(tdb.db, conn, { rows: [added, row('p-renamed', 'Lunch')], removed: [], cursor: 'c-4', ahead }, categoriser);

    const lunch = await stored('p-renamed');
    expect(lunch).toMatchObject({ name: 'Lunch', categorySlug: null });
    expect(lunch.id).not.toBe(ahead!.get('p-renamed')!.id);
    expect(await tagsOf(lunch.id)).toEqual([]);
  });

  it('is left to the store when the categoriser cannot be read, which then fails in the page transaction', async () => {
    const rows = [row('p-fail', 'GitHub')];
    const broken = () => Promise.reject(new Error('the rules could not be read'));
    expect(await categoriseAhead(rows, broken)).toBeUndefined();
    await expect(storeBankAPage(tdb.db, conn, { rows, removed: [], cursor: 'c-5' }, broken)).rejects.toThrow('the rules could not be read');
    expect(await stored('p-fail')).toBeUndefined();
    // Read again, the page goes in categorised.
    await storeBankAPage(tdb.db, conn, { rows, removed: [], cursor: 'c-5', ahead: await categoriseAhead(rows, categoriser) }, categoriser);
    expect(await stored('p-fail')).toMatchObject({ categorySlug: 'software' });
  });
});
