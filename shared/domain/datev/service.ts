import type { Db } from '../../db/knex';
import { BankAccount, Category, DatevAccount, DatevSettings } from '../../db/models';
import { badRequest } from '../../errors';
import { accountPlanOf, bankAccountsOf, widen, SKR03_SUSPENSE_ACCOUNT } from './accounts';
import type { AccountMappingDto, UpdateAccountMappingBody } from './schema';

export async function getAccountMapping(db: Db, teamId: string): Promise<AccountMappingDto> {
  const [plan, categories, banks] = await Promise.all([
    accountPlanOf(db, teamId),
    Category.query(db).where({ teamId }).select('slug', 'name').orderBy('slug'),
    bankAccountsOf(db, teamId),
  ]);
  return {
    consultantNumber: plan.consultantNumber,
    clientNumber: plan.clientNumber,
    accountLength: plan.accountLength,
    suspenseAccount: plan.suspenseAccount,
    categories: categories.map((c) => ({ categorySlug: c.slug, name: c.name, ...plan.category(c.slug) })),
    bankAccounts: banks.map((b) => ({ bankAccountId: b.id, name: b.name, ...plan.bankAccount(b.id) })),
  };
}

/**
 * Replaces the team's mapping with the one given: what it leaves out falls back to the SKR03 defaults.
 * Every account has the account length's digits, and every category and bank account is the team's
 * (400 otherwise, nothing written).
 */
export async function updateAccountMapping(db: Db, teamId: string, body: UpdateAccountMappingBody): Promise<AccountMappingDto> {
  const suspenseAccount = body.suspenseAccount ?? widen(SKR03_SUSPENSE_ACCOUNT, body.accountLength);
  const details = [
    ...(suspenseAccount.length === body.accountLength
      ? []
      : [{ field: 'suspenseAccount', message: `must have ${body.accountLength} digits` }]),
    ...body.categories.flatMap((c, i) =>
      c.account.length === body.accountLength
        ? []
        : [{ field: `categories.${i}.account`, message: `must have ${body.accountLength} digits` }],
    ),
    ...body.bankAccounts.flatMap((b, i) =>
      b.account.length === body.accountLength
        ? []
        : [{ field: `bankAccounts.${i}.account`, message: `must have ${body.accountLength} digits` }],
    ),
  ];
  if (details.length) throw badRequest('Every account must have the account length’s digits', details);
  const slugs = body.categories.map((c) => c.categorySlug);
  const known = new Set((await Category.query(db).where({ teamId }).whereIn('slug', slugs).select('slug')).map((c) => c.slug));
  const unknownCategories = body.categories.flatMap((c, i) =>
    known.has(c.categorySlug) ? [] : [{ field: `categories.${i}.categorySlug`, message: 'no such category in your team' }],
  );
  const ids = body.bankAccounts.map((b) => b.bankAccountId);
  const banks = new Set((await BankAccount.query(db).where({ teamId }).whereIn('id', ids).select('id')).map((b) => b.id));
  const unknownBanks = body.bankAccounts.flatMap((b, i) =>
    banks.has(b.bankAccountId) ? [] : [{ field: `bankAccounts.${i}.bankAccountId`, message: 'no such bank account in your team' }],
  );
  if (unknownCategories.length || unknownBanks.length)
    throw badRequest('Unknown category or bank account', [...unknownCategories, ...unknownBanks]);

  await db.transaction(async (trx) => {
    const settings = {
      consultantNumber: body.consultantNumber,
      clientNumber: body.clientNumber,
      accountLength: body.accountLength,
      suspenseAccount,
      updatedAt: new Date(),
    };
    await DatevSettings.query(trx)
      .insert({ teamId, ...settings })
      .onConflict('teamId')
      .merge(['consultantNumber', 'clientNumber', 'accountLength', 'suspenseAccount', 'updatedAt']);
    // Only what changed is deleted and written, so the audit trail shows the mapping's real changes.
    const current = await DatevAccount.query(trx).where({ teamId });
    const wanted = new Map<string, string>([
      ...body.categories.map((c) => [`c:${c.categorySlug}`, c.account] as const),
      ...body.bankAccounts.map((b) => [`b:${b.bankAccountId}`, b.account] as const),
    ]);
    const keyOf = (m: DatevAccount) => (m.categorySlug ? `c:${m.categorySlug}` : `b:${m.bankAccountId}`);
    const gone = current.filter((m) => wanted.get(keyOf(m)) !== m.account).map((m) => m.id);
    if (gone.length) await DatevAccount.query(trx).where({ teamId }).whereIn('id', gone).delete();
    const kept = new Set(current.filter((m) => wanted.get(keyOf(m)) === m.account).map(keyOf));
    const rows = [...wanted.entries()]
      .filter(([key]) => !kept.has(key))
      .map(([key, account]) =>
        key.startsWith('c:')
          ? { teamId, categorySlug: key.slice(2), bankAccountId: null, account }
          : { teamId, categorySlug: null, bankAccountId: key.slice(2), account },
      );
    if (rows.length) await DatevAccount.query(trx).insert(rows);
  });
  return getAccountMapping(db, teamId);
}
