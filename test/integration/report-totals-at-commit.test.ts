import { withinTeam } from '../../shared/db/team-wall';
import { createTeamAndOwner } from '../support/fixtures';
import { withTestDatabase } from '../support/database';

/**
 * Report totals are added when the writing transaction commits (migration 0108): two writers of one
 * team's day, currency and category do not wait for each other until then, and what each leaves in
 * the totals is exactly what it committed.
 */
let teamId: string;
const tdb = withTestDatabase({
  setUp: async () => {
    teamId = (await createTeamAndOwner(tdb.db, 'Acme')).team.id;
  },
});

const row = (name: string, amount: number) => ({ teamId, date: '2026-11-20', name, amount, currency: 'EUR' });

const totals = async () =>
  tdb.db('transaction_daily_totals').where({ teamId, date: '2026-11-20' }).first('expenses', 'expenseCount', 'income', 'incomeCount');

/** Deltas and marks are gone once folded. */
const rowsIn = async (table: string) => (await tdb.db(table).count<{ n: number }[]>('* as n'))[0].n;

describe('report totals at commit', () => {
  it('lets a second writer of the same totals row commit while the first is still open, and counts both', async () => {
    const first = await tdb.db.transaction();
    try {
      await first('transactions').insert(row('First', -10));
      // Before 0108 this insert waited for `first` to end, holding the totals row since its insert.
      const second = tdb.db.transaction(async (trx) => trx('transactions').insert(row('Second', -5)));
      await expect(Promise.race([second.then(() => 'committed'), new Promise((r) => setTimeout(() => r('blocked'), 3000))])).resolves.toBe(
        'committed',
      );
      expect(await totals()).toMatchObject({ expenses: 5, expenseCount: 1 });
      await first.commit();
    } catch (err) {
      await first.rollback();
      throw err;
    }
    expect(await totals()).toMatchObject({ expenses: 15, expenseCount: 2 });
    expect(await rowsIn('transaction_totals_pending')).toBe(0);
  });

  it('adds nothing of a rolled-back transaction or savepoint, and folds several statements of one transaction once', async () => {
    await tdb.db.transaction(async (trx) => {
      await trx('transactions').insert(row('Kept', -1));
      await trx
        .transaction(async (inner) => {
          await inner('transactions').insert(row('Undone', -100));
          throw new Error('roll back the savepoint');
        })
        .catch(() => undefined);
      await trx('transactions').insert([row('Income', 7), row('Kept too', -2)]);
      await trx('transactions').where({ teamId, name: 'Kept too' }).update({ amount: -3 });
    });
    await tdb.db
      .transaction(async (trx) => {
        await trx('transactions').insert(row('Rolled back', -1000));
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await totals()).toMatchObject({ expenses: 19, expenseCount: 4, income: 7, incomeCount: 1 });
    expect(await rowsIn('transaction_totals_pending')).toBe(0);
    expect(await rowsIn('transaction_totals_folds')).toBe(0);
  });

  it('folds behind the team wall as well', async () => {
    await withinTeam(teamId, () => tdb.db.transaction(async (trx) => trx('transactions').insert(row('Walled', -1))));
    expect(await totals()).toMatchObject({ expenses: 20, expenseCount: 5 });
  });
});
