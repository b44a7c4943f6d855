import { ApplicationFailure, heartbeat, log } from '@temporalio/activity';
import type { Db } from '../../shared/db/knex';
import { decrypt } from '../../shared/domain/crypto/encryption';
import type { BankAClient, BankATransaction } from '../../shared/providers/bank-a';
import type { BankBClient, BankBTransaction } from '../../shared/providers/bank-b';
import { BankAuthError } from '../../shared/providers/bank-errors';
import type { ActivityDeps } from '../deps';

export interface SyncResult {
  added: number;
  modified: number;
  removed: number;
  skipped?: 'deleted' | 'disconnected';
}

type Row = Record<string, unknown>;
const MERGED = ['date', 'name', 'description', 'method', 'amount', 'currency', 'status', 'merchantName', 'counterpartyName', 'bankAccountId', 'updatedAt'];

/** Idempotent: keyed by the provider's transaction id, a row synced twice is updated, never duplicated. */
async function upsertTransactions(db: Db, all: Row[]): Promise<{ added: number; modified: number }> {
  // One statement may touch a row once: when a page both adds and modifies a transaction, the later version wins.
  const rows = [...new Map(all.map((r) => [r.providerTransactionId, r])).values()];
  if (!rows.length) return { added: 0, modified: 0 };
  const result: Array<{ inserted: boolean }> = await db('transactions')
    .insert(rows)
    .onConflict(['teamId', 'providerTransactionId'])
    .merge(MERGED)
    .returning(db.raw('(xmax = 0) as inserted') as any);
  const added = result.filter((r) => r.inserted).length;
  return { added, modified: result.length - added };
}

const bankAMethod = (t: BankATransaction) => (t.payment_channel === 'online' || t.payment_channel === 'in store' ? 'card_purchase' : 'other');

async function syncBankA(db: Db, client: BankAClient, conn: any, token: string): Promise<SyncResult> {
  const { accounts, item } = await client.getAccounts(token);
  const accountIds = await upsertAccounts(
    db,
    conn,
    accounts.map((a) => ({
      providerAccountId: a.account_id,
      name: a.official_name ?? a.name,
      currency: a.balances.iso_currency_code ?? 'USD',
      type: a.type === 'credit' ? 'credit' : a.type === 'loan' ? 'loan' : 'depository',
      subtype: a.subtype ?? null,
      mask: a.mask ?? null,
      balance: a.balances.current,
      availableBalance: a.balances.available,
      creditLimit: a.balances.limit,
    })),
  );
  if (item?.institution_name) await db('bank_connections').where({ id: conn.id }).update({ institutionName: item.institution_name, institutionId: item.institution_id ?? null });

  const totals: SyncResult = { added: 0, modified: 0, removed: 0 };
  let cursor: string | null = conn.syncCursor;
  for (let page = 1; ; page++) {
    const res = await client.transactionsSync(token, cursor);
    const toRow = (t: BankATransaction): Row => ({
      teamId: conn.teamId,
      bankAccountId: accountIds.get(t.account_id) ?? null,
      providerTransactionId: t.transaction_id,
      date: t.date,
      name: t.merchant_name ?? t.name,
      description: t.name,
      method: bankAMethod(t),
      amount: -t.amount, // bank-a: positive is money out; ours: negative is an expense
      currency: (t.iso_currency_code ?? 'USD').toUpperCase(),
      status: t.pending ? 'pending' : 'posted',
      merchantName: t.merchant_name ?? null,
      counterpartyName: t.merchant_name ?? null,
      updatedAt: new Date(),
    });
    // The page and the cursor after it are stored together: a crash re-fetches at most this page.
    await db.transaction(async (trx) => {
      const counts = await upsertTransactions(trx, [...res.added, ...res.modified].map(toRow));
      const removedIds = res.removed.map((r) => r.transaction_id);
      const removed = removedIds.length ? await trx('transactions').where({ teamId: conn.teamId }).whereIn('providerTransactionId', removedIds).delete() : 0;
      await trx('bank_connections').where({ id: conn.id }).update({ syncCursor: res.next_cursor || cursor });
      totals.added += counts.added;
      totals.modified += counts.modified;
      totals.removed += removed;
    });
    cursor = res.next_cursor || cursor;
    heartbeat({ page });
    if (!res.has_more) break;
  }
  return totals;
}

async function syncBankB(db: Db, client: BankBClient, conn: any, token: string): Promise<SyncResult> {
  const accounts = (await client.listAccounts(token)).filter((a) => a.status === 'open');
  const balances = new Map<string, number | null>();
  for (const a of accounts) {
    const b = await client.getBalances(token, a.id);
    balances.set(a.id, b.ledger === null ? null : Number(b.ledger));
  }
  const accountIds = await upsertAccounts(
    db,
    conn,
    accounts.map((a) => ({
      providerAccountId: a.id,
      name: a.name,
      currency: a.currency.toUpperCase(),
      type: a.type === 'credit' ? 'credit' : 'depository',
      subtype: a.subtype ?? null,
      mask: a.last_four ?? null,
      balance: balances.get(a.id) ?? null,
      availableBalance: null,
      creditLimit: null,
    })),
  );
  if (accounts[0]?.institution) await db('bank_connections').where({ id: conn.id }).update({ institutionName: accounts[0].institution.name, institutionId: accounts[0].institution.id });

  const totals: SyncResult = { added: 0, modified: 0, removed: 0 };
  const currencies = new Map(accounts.map((a) => [a.id, a.currency.toUpperCase()]));
  for (const account of accounts) {
    let fromId: string | undefined;
    for (let page = 1; ; page++) {
      const batch = await client.listTransactions(token, account.id, fromId);
      const rows = batch.map(
        (t: BankBTransaction): Row => ({
          teamId: conn.teamId,
          bankAccountId: accountIds.get(account.id) ?? null,
          providerTransactionId: t.id,
          date: t.date,
          name: t.details?.counterparty?.name ?? t.description,
          description: t.description,
          method: t.type === 'card_payment' ? 'card_purchase' : t.type === 'transfer' ? 'transfer' : t.type === 'ach' ? 'ach' : t.type === 'wire' ? 'wire' : 'other',
          amount: Number(t.amount),
          currency: currencies.get(account.id)!,
          status: t.status === 'pending' ? 'pending' : 'posted',
          merchantName: t.details?.counterparty?.name ?? null,
          counterpartyName: t.details?.counterparty?.name ?? null,
          updatedAt: new Date(),
        }),
      );
      const counts = await upsertTransactions(db, rows);
      totals.added += counts.added;
      totals.modified += counts.modified;
      heartbeat({ account: account.id, page });
      if (batch.length === 0 || batch.length < 500) break;
      fromId = batch[batch.length - 1].id;
    }
  }
  return totals;
}

async function upsertAccounts(db: Db, conn: any, accounts: Row[]): Promise<Map<string, string>> {
  if (!accounts.length) return new Map();
  const rows = await db('bank_accounts')
    .insert(accounts.map((a) => ({ ...a, teamId: conn.teamId, bankConnectionId: conn.id, manual: false, updatedAt: new Date() })))
    .onConflict(['bankConnectionId', 'providerAccountId'])
    .merge(['name', 'currency', 'type', 'subtype', 'mask', 'balance', 'availableBalance', 'creditLimit', 'updatedAt'])
    .returning(['id', 'providerAccountId']);
  return new Map(rows.map((r: any) => [r.providerAccountId, r.id]));
}

export function bankingActivities({ db, config, bankA, bankB }: ActivityDeps) {
  return {
    /**
     * One full sync pass of a connection: accounts and balances, then every new page of transactions.
     * Provider auth failures disconnect the connection and are not retried; anything else is.
     */
    async syncBankConnection(input: { connectionId: string; manualSync: boolean }): Promise<SyncResult> {
      const conn = await db('bank_connections').where({ id: input.connectionId }).first();
      if (!conn) return { added: 0, modified: 0, removed: 0, skipped: 'deleted' };
      if (conn.status === 'disconnected') return { added: 0, modified: 0, removed: 0, skipped: 'disconnected' };
      const token = decrypt(conn.accessTokenEncrypted, config.ENCRYPTION_KEY);
      let result: SyncResult;
      try {
        result = conn.provider === 'bank-a' ? await syncBankA(db, bankA, conn, token) : await syncBankB(db, bankB, conn, token);
      } catch (err) {
        if (err instanceof BankAuthError) {
          await db('bank_connections').where({ id: conn.id }).update({ status: 'disconnected', errorCode: err.code, errorMessage: err.message, updatedAt: new Date() });
          log.warn('bank connection disconnected by the provider', { connectionId: conn.id, code: err.code });
          throw ApplicationFailure.nonRetryable(`${conn.provider} refused the credentials (${err.code})`, 'BankAuthError');
        }
        throw err;
      }
      await db('bank_connections').where({ id: conn.id }).update({ lastSyncedAt: new Date(), errorCode: null, errorMessage: null });
      if (result.added > 0) {
        await db('notifications').insert({
          teamId: conn.teamId,
          type: 'transactions_created',
          priority: 3,
          metadata: JSON.stringify({ connectionId: conn.id, count: result.added, manualSync: input.manualSync }),
        });
      }
      return result;
    },
  };
}

export type BankingActivities = ReturnType<typeof bankingActivities>;
