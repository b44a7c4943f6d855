import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import type { BankAccount, BankConnection } from '../../db/models';
import type { BankAAccount } from '../../providers/bank-a';
import type { BankBAccount, BankBClient } from '../../providers/bank-b';

/** A provider account in our terms. */
export type ProviderAccount = Pick<
  ModelObject<BankAccount>,
  'name' | 'currency' | 'type' | 'subtype' | 'mask' | 'balance' | 'availableBalance' | 'creditLimit'
> & { providerAccountId: string };

/** The connection's accounts, created or refreshed (linking and every sync); by provider account id, our account id. */
export async function upsertProviderAccounts(
  db: Db,
  conn: Pick<BankConnection, 'id' | 'teamId'>,
  accounts: ProviderAccount[],
): Promise<Map<string, string>> {
  if (!accounts.length) return new Map();
  const rows = await db<ModelObject<BankAccount>>('bank_accounts')
    .insert(accounts.map((a) => ({ ...a, teamId: conn.teamId, bankConnectionId: conn.id, manual: false, updatedAt: new Date() })))
    .onConflict(['bankConnectionId', 'providerAccountId'])
    .merge(['name', 'currency', 'type', 'subtype', 'mask', 'balance', 'availableBalance', 'creditLimit', 'updatedAt'])
    .returning(['id', 'providerAccountId']);
  return new Map(rows.flatMap((r) => (r.providerAccountId === null ? [] : [[r.providerAccountId, r.id] as const])));
}

/** The connection's accounts as last read from the provider: its account id → ours. */
export async function knownProviderAccounts(db: Db, conn: Pick<BankConnection, 'id'>): Promise<Map<string, string>> {
  const rows = await db('bank_accounts')
    .where({ bankConnectionId: conn.id })
    .whereNotNull('providerAccountId')
    .select<{ id: string; providerAccountId: string }[]>('id', 'providerAccountId');
  return new Map(rows.map((r) => [r.providerAccountId, r.id]));
}

export const bankAAccount = (a: BankAAccount): ProviderAccount => ({
  providerAccountId: a.account_id,
  name: a.official_name ?? a.name,
  currency: a.balances.iso_currency_code ?? 'USD',
  type: a.type === 'credit' ? 'credit' : a.type === 'loan' ? 'loan' : 'depository',
  subtype: a.subtype ?? null,
  mask: a.mask ?? null,
  balance: a.balances.current,
  availableBalance: a.balances.available,
  creditLimit: a.balances.limit,
});

/** bank-b's open accounts with their ledger balances (one call per account, as Teller has it). */
export async function bankBAccounts(client: BankBClient, token: string): Promise<{ raw: BankBAccount[]; accounts: ProviderAccount[] }> {
  const raw = (await client.listAccounts(token)).filter((a) => a.status === 'open');
  const accounts: ProviderAccount[] = [];
  for (const a of raw) {
    const b = await client.getBalances(token, a.id);
    accounts.push({
      providerAccountId: a.id,
      name: a.name,
      currency: a.currency.toUpperCase(),
      type: a.type === 'credit' ? 'credit' : 'depository',
      subtype: a.subtype ?? null,
      mask: a.last_four ?? null,
      balance: b.ledger === null ? null : Number(b.ledger),
      availableBalance: null,
      creditLimit: null,
    });
  }
  return { raw, accounts };
}
