import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { BankAccount } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { conflict, notFound } from '../../errors';
import type { BankAccountDto, createBankAccountBody, updateBankAccountBody } from './schema';

/** An account as the API shows it, on its own or within its connection. */
export const accountDto = (a: BankAccount): BankAccountDto => ({
  id: a.id,
  connectionId: a.bankConnectionId,
  name: a.name,
  currency: a.currency,
  type: a.type,
  subtype: a.subtype,
  mask: a.mask,
  balance: a.balance,
  availableBalance: a.availableBalance,
  creditLimit: a.creditLimit,
  enabled: a.enabled,
  manual: a.manual,
  openingBalance: a.openingBalance,
  openingBalanceDate: a.openingBalanceDate,
  updatedAt: toIso(a.updatedAt),
});

/**
 * The team's accounts; a manual account's balance is computed here: its opening balance plus its
 * booked transactions since the opening date (one made before opening balances keeps its stored one).
 */
export function accountsWithBalances(db: Db, teamId: string) {
  return BankAccount.query(db)
    .where('bank_accounts.team_id', teamId)
    .select(
      'bank_accounts.*',
      db.raw(`case when bank_accounts.manual and bank_accounts.opening_balance is not null then bank_accounts.opening_balance + coalesce((
                 select sum(t.amount) from transactions t
                  where t.team_id = bank_accounts.team_id and t.bank_account_id = bank_accounts.id and t.status in ('posted', 'completed')
                    and (bank_accounts.opening_balance_date is null or t.date >= bank_accounts.opening_balance_date)), 0)
               else bank_accounts.balance end as balance`),
    );
}

export async function listAccounts(db: Db, teamId: string): Promise<BankAccountDto[]> {
  return (await accountsWithBalances(db, teamId).orderBy('name')).map(accountDto);
}

export async function getAccount(db: Db, teamId: string, id: string): Promise<BankAccountDto> {
  const row = (await accountsWithBalances(db, teamId).where('bank_accounts.id', id)).at(0);
  if (!row) throw notFound(`Bank account ${id} not found`);
  return accountDto(row);
}

/** A manual account (cash, a card without a feed): no connection, an opening balance. */
export async function createManualAccount(db: Db, teamId: string, body: z.infer<typeof createBankAccountBody>): Promise<BankAccountDto> {
  const row = await BankAccount.query(db).insert({
    teamId,
    name: body.name,
    currency: body.currency,
    type: body.type,
    manual: true,
    openingBalance: body.openingBalance,
    openingBalanceDate: body.openingBalanceDate ?? null,
  });
  return getAccount(db, teamId, row.id);
}

/** Only manual accounts can be deleted (a provider's come back with the next sync); their transactions stay, without an account. */
export async function deleteManualAccount(db: Db, teamId: string, id: string): Promise<void> {
  const row = await BankAccount.query(db).findOne({ teamId, id }).select('manual');
  if (!row) throw notFound(`Bank account ${id} not found`);
  if (!row.manual) throw conflict("A provider's account cannot be deleted; disable it instead, or delete its connection");
  await BankAccount.query(db).delete().where({ teamId, id });
}

/**
 * Renames, enables or disables any account; a manual account's opening balance and date can be
 * corrected too (its balance is computed from them on every read). A provider's account takes its
 * balance from the provider, so those two are refused for it (409, as deleting it is).
 */
export async function updateAccount(
  db: Db,
  teamId: string,
  id: string,
  body: z.infer<typeof updateBankAccountBody>,
): Promise<BankAccountDto> {
  const row = await BankAccount.query(db).findOne({ teamId, id }).select('manual');
  if (!row) throw notFound(`Bank account ${id} not found`);
  if (!row.manual && (body.openingBalance !== undefined || body.openingBalanceDate !== undefined))
    throw conflict("A provider's account has the provider's balance; only a manual account's opening balance can be set");
  await BankAccount.query(db)
    .where({ teamId, id })
    .patch({ ...body, updatedAt: new Date() });
  return getAccount(db, teamId, id);
}
