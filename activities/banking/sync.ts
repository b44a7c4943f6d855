import { markDisconnected } from '../../shared/domain/bank-connections/status';
import { pauseScheduleOfDisconnected, requestScheduledSync } from '../../shared/domain/bank-connections/scheduled-sync';
import type { ScheduledBankSyncInput, ScheduledBankSyncOutcome } from '../../shared/temporal/scheduled-bank-sync/contract';
import { ApplicationFailure, heartbeat, log } from '@temporalio/activity';
import type { Db } from '../../shared/db/knex';
import { decrypt, keyringOf } from '../../shared/domain/crypto/encryption';
import { notify } from '../../shared/domain/notifications/service';
import { detectAfterArrival } from '../../shared/domain/recurring-payments/service';
import { requestLlmCategoriesAfterArrival } from '../../shared/domain/learned-categories/llm';
import type { BankAClient, BankATransaction } from '../../shared/providers/bank-a';
import {
  bankAAccount,
  bankBAccounts,
  knownProviderAccounts,
  upsertProviderAccounts,
} from '../../shared/domain/bank-connections/provider-accounts';
import { recordConsentExpiry } from '../../shared/domain/bank-connections/consent';
import { expireStalePending } from '../../shared/domain/bank-connections/pending';
import type { BankBClient, BankBTransaction } from '../../shared/providers/bank-b';
import { BankAuthError } from '../../shared/providers/bank-errors';
import type { SyncResult } from '../../shared/temporal/sync-connection/contract';
import type { ActivityDeps } from '../deps';
import { dropSyncLease, leaseSyncRequests, releaseSyncLease, requestedSince } from '../../shared/domain/bank-connections/sync-requests';
import {
  connectionToSync,
  markSynced,
  setInstitution,
  storeBankAPage,
  storeBankBPage,
  categoriseAhead,
  type CategoriserSource,
  type ConnectionToSync,
  type SyncedTransaction,
} from '../../shared/domain/bank-connections/sync';
import { loadCategoriser } from '../../shared/domain/learned-categories/apply';
import { fetchedAhead } from './fetch-ahead';

const bankAMethod = (t: BankATransaction): SyncedTransaction['method'] =>
  t.payment_channel === 'online' || t.payment_channel === 'in store' ? 'card_purchase' : 'other';

async function syncBankA(
  db: Db,
  client: BankAClient,
  conn: ConnectionToSync,
  token: string,
  onConsentExpiry: (expiresAt: Date | null, observedAt: Date) => Promise<void>,
  categoriser: CategoriserSource,
  readAccounts: boolean,
): Promise<SyncResult> {
  const readTheAccounts = async () => {
    const readAt = new Date();
    const { accounts, item } = await client.getAccounts(token);
    const ids = await upsertProviderAccounts(db, conn, accounts.map(bankAAccount));
    if (item.institution_name) await setInstitution(db, conn, { id: item.institution_id ?? null, name: item.institution_name });
    // The item reports its consent's end on every read: a renewal at the bank moves the consent timer.
    if (item.consent_expiration_time !== undefined) {
      await onConsentExpiry(item.consent_expiration_time ? new Date(item.consent_expiration_time) : null, readAt);
    }
    return ids;
  };
  // A pass of a burst whose accounts were just read takes them as stored. A page that names an
  // account not among them (opened at the bank since) has them read again, once a pass.
  let accountIds = readAccounts ? await readTheAccounts() : await knownProviderAccounts(db, conn);
  let readAgain = false;

  const toRow = (t: BankATransaction): SyncedTransaction => ({
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
    providerCategory: t.personal_finance_category?.primary ?? null,
    pendingProviderId: t.pending_transaction_id ?? null,
  });

  const totals: SyncResult = { added: 0, modified: 0, removed: 0 };
  // bank-a says which rows are new: a page's are categorised as it arrives, while the page before it
  // is written. Only while every account the pages name is known: once a page needs the accounts read
  // again, it and the pages after it categorise when stored, so pages are still categorised in order.
  let early = true;
  const accountsKnown = (res: { added: BankATransaction[]; modified: BankATransaction[] }) =>
    [...res.added, ...res.modified].every((t) => accountIds.has(t.account_id));
  // A page and the cursor after it (an empty next_cursor keeps the one it was asked with).
  const fetchPage = async (from: string | null) => {
    const res = await client.transactionsSync(token, from);
    early &&= accountsKnown(res);
    const added = early ? res.added.map(toRow) : undefined;
    return { res, next: res.next_cursor || from, added, ahead: added && categoriseAhead(added, categoriser) };
  };
  let page = 0;
  for await (const { res, next, added, ahead } of fetchedAhead(fetchPage(conn.syncCursor), (p) =>
    p.res.has_more ? fetchPage(p.next) : undefined,
  )) {
    page++;
    if (!readAgain && !accountsKnown(res)) {
      accountIds = await readTheAccounts();
      readAgain = true;
    }
    // The page and the cursor after it are stored together: a crash re-fetches at most this page.
    const counts = await storeBankAPage(
      db,
      conn,
      {
        rows: [...(added ?? res.added.map(toRow)), ...res.modified.map(toRow)],
        removed: res.removed.map((r) => r.transaction_id),
        cursor: next,
        ahead: await ahead,
      },
      categoriser,
    );
    totals.added += counts.added;
    totals.modified += counts.modified;
    totals.removed += counts.removed;
    heartbeat({ page });
  }
  return totals;
}

const BANK_B_METHODS = new Map<string | undefined, SyncedTransaction['method']>([
  ['card_payment', 'card_purchase'],
  ['transfer', 'transfer'],
  ['ach', 'ach'],
  ['wire', 'wire'],
]);

async function syncBankB(
  db: Db,
  client: BankBClient,
  conn: ConnectionToSync,
  token: string,
  categoriser: CategoriserSource,
): Promise<SyncResult> {
  const { raw: accounts, accounts: providerAccounts } = await bankBAccounts(client, token);
  const accountIds = await upsertProviderAccounts(db, conn, providerAccounts);
  const institution = accounts.at(0)?.institution;
  if (institution) await setInstitution(db, conn, institution);

  const totals: SyncResult = { added: 0, modified: 0, removed: 0 };
  for (const account of accounts) {
    const currency = account.currency.toUpperCase();
    const fetchPage = (fromId?: string) => client.listTransactions(token, account.id, fromId);
    // A short page is the last; the next one starts after the last id seen.
    const nextOf = (batch: BankBTransaction[]) => {
      const last = batch.length < 500 ? undefined : batch.at(-1);
      return last && fetchPage(last.id);
    };
    let page = 0;
    for await (const batch of fetchedAhead(fetchPage(), nextOf)) {
      page++;
      const rows = batch.map((t: BankBTransaction): SyncedTransaction => ({
        bankAccountId: accountIds.get(account.id) ?? null,
        providerTransactionId: t.id,
        date: t.date,
        name: t.details?.counterparty?.name ?? t.description,
        description: t.description,
        method: BANK_B_METHODS.get(t.type) ?? 'other',
        amount: Number(t.amount),
        currency,
        status: t.status === 'pending' ? 'pending' : 'posted',
        merchantName: t.details?.counterparty?.name ?? null,
        counterpartyName: t.details?.counterparty?.name ?? null,
        providerCategory: t.details?.category ?? null,
      }));
      const counts = await storeBankBPage(db, conn.teamId, rows, categoriser);
      totals.added += counts.added;
      totals.modified += counts.modified;
      heartbeat({ account: account.id, page });
    }
  }
  return totals;
}

/** The shape the domain's best-effort steps log through, onto the activity's logger. */
const activityLogger = {
  error: (attrs: Record<string, unknown>, msg: string) => {
    log.error(msg, attrs);
  },
};

export function bankingActivities({ db, config, bankA, bankB, temporal }: ActivityDeps) {
  /**
   * After passes went through: the connection is marked synced, pending transactions never booked
   * are removed, and new transactions are looked at for recurring payments, announced and, apart
   * from the run, offered to the language model.
   */
  const afterPasses = async (conn: ConnectionToSync, passes: { added: number; manualSync: boolean }) => {
    await markSynced(db, conn.id);
    // After the pass: a pending transaction booked in it was merged into its booked one and is gone.
    const expired = await expireStalePending(db, conn, config.PENDING_TRANSACTION_MAX_AGE_DAYS);
    if (expired) log.info('pending transactions never booked were removed', { connectionId: conn.id, count: expired });
    if (passes.added > 0) {
      await detectAfterArrival(db, conn.teamId, (err) => {
        log.warn('recurring payments not detected after a sync', { connectionId: conn.id, error: String(err) });
      });
      await notify(db, {
        teamId: conn.teamId,
        type: 'transactions_created',
        metadata: { connectionId: conn.id, count: passes.added, manualSync: passes.manualSync },
      });
      // Apart from this run: a slow or absent model must not hold the sync up.
      await requestLlmCategoriesAfterArrival({ config, temporal }, conn.teamId, (err) => {
        log.warn('language model categories not requested after a sync', { connectionId: conn.id, error: String(err) });
      });
    }
  };

  return {
    /** The connection's schedule fired: a sync is requested, or the schedule paused or removed. */
    async requestScheduledSync(input: ScheduledBankSyncInput): Promise<ScheduledBankSyncOutcome> {
      return requestScheduledSync(db, temporal, input);
    },

    /**
     * One full sync pass of a connection: accounts and balances, then every new page of transactions.
     * Provider auth failures disconnect the connection and are not retried; anything else is.
     */
    async syncBankConnection(input: {
      connectionId: string;
      manualSync: boolean;
      /** Runs of the lease: what follows the passes is made by finishSyncPasses. */
      afterPassesApart?: boolean;
      /** False within a burst whose accounts were just read (bank-a): the stored ones serve. */
      readAccounts?: boolean;
    }): Promise<SyncResult> {
      const conn = await connectionToSync(db, input.connectionId);
      if (!conn) return { added: 0, modified: 0, removed: 0, skipped: 'deleted' };
      if (conn.status === 'disconnected') {
        await dropSyncLease(db, conn.id);
        return { added: 0, modified: 0, removed: 0, skipped: 'disconnected' };
      }
      if (!conn.accessTokenEncrypted)
        throw ApplicationFailure.nonRetryable(`bank connection ${conn.id} has no access token`, 'MissingAccessToken');
      const token = decrypt(conn.accessTokenEncrypted, keyringOf(config));
      const seen = await leaseSyncRequests(db, conn.id);
      let result: SyncResult;
      // The team's rules and learner are read once for the pass, when a page first brings a new row.
      let categoriser: ReturnType<CategoriserSource> | undefined;
      const onePerPass: CategoriserSource = () => (categoriser ??= loadCategoriser(db, conn.teamId));
      try {
        const consentDeps = { db, temporal, config, logger: activityLogger };
        result =
          conn.provider === 'bank-a'
            ? await syncBankA(
                db,
                bankA,
                conn,
                token,
                (expiresAt, readAt) => recordConsentExpiry(consentDeps, conn, expiresAt, readAt),
                onePerPass,
                input.readAccounts ?? true,
              )
            : await syncBankB(db, bankB, conn, token, onePerPass);
      } catch (err) {
        if (err instanceof BankAuthError) {
          await markDisconnected(db, conn, { code: err.code, message: err.message });
          await dropSyncLease(db, conn.id);
          await pauseScheduleOfDisconnected({ temporal, logger: activityLogger }, conn.id);
          log.warn('bank connection disconnected by the provider', { connectionId: conn.id, code: err.code });
          throw ApplicationFailure.nonRetryable(`${conn.provider} refused the credentials (${err.code})`, 'BankAuthError');
        }
        throw err;
      }
      // Runs of the lease make these once at the end of a burst (finishSyncPasses); earlier runs, here.
      if (!input.afterPassesApart) await afterPasses(conn, { added: result.added, manualSync: input.manualSync });
      return { ...result, moreRequested: await requestedSince(db, conn.id, seen) };
    },

    /** The end of a burst of passes: what follows new transactions, once for all the passes' rows. */
    async finishSyncPasses(input: { connectionId: string; added: number; manualSync: boolean }): Promise<void> {
      const conn = await connectionToSync(db, input.connectionId);
      if (conn) await afterPasses(conn, input);
    },

    /** The run would end: true when it may (the lease is given back), false when a request came since its last pass. */
    async releaseSyncLease(input: { connectionId: string }): Promise<boolean> {
      return releaseSyncLease(db, input.connectionId);
    },
  };
}

export type BankingActivities = ReturnType<typeof bankingActivities>;
