import { allHandlersFinished, condition, continueAsNew, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { BankingActivities } from '../activities/banking/sync';
import type { ReceiptActivities } from '../activities/receipts/ingest';
import type { InvoiceLifecycleActivities } from '../activities/invoices/lifecycle';
import { syncRequested, syncStatus, type SyncConnectionWorkflow, type SyncResult } from '../shared/temporal/sync-connection/contract';

const { syncBankConnection, finishSyncPasses, releaseSyncLease } = proxyActivities<BankingActivities>({
  startToCloseTimeout: '15m',
  // A worker that dies mid-sync is noticed within this, and the retry resumes from the saved cursor.
  heartbeatTimeout: '20s',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumInterval: '5m',
    maximumAttempts: 12,
    nonRetryableErrorTypes: ['BankAuthError'],
  },
});

const { rematchOpenInboxItems } = proxyActivities<ReceiptActivities>({ startToCloseTimeout: '5m', retry: { maximumAttempts: 5 } });
const { matchInvoicePayments } = proxyActivities<InvoiceLifecycleActivities>({ startToCloseTimeout: '5m', retry: { maximumAttempts: 5 } });

// Bounded the history of a connection that keeps getting webhooks while it syncs (runs started before the history bound).
const PASSES_PER_RUN = 50;
/**
 * Bounds the history of a connection that keeps getting webhooks while it syncs: every request is an
 * event and a workflow task, so a busy connection's run grows by its requests, not its passes, and a
 * long history makes each of its tasks slower on the server. Continued well before the server suggests it.
 */
const EVENTS_PER_RUN = 500;

/** Under requests that never stop, what follows the passes still runs this often. */
const FOLLOW_UPS_EVERY_MS = 10_000;
/**
 * Within a burst, a connection's accounts, balances and consent are read from the provider at most
 * this often (its transactions on every pass): a bank's webhooks are about transactions, and its
 * account reads are rate-limited.
 */
const ACCOUNTS_EVERY_MS = 60_000;

/**
 * SyncConnection (id `sync-connection:<connectionId>`), started with signal-with-start: a burst of
 * webhooks coalesces into this one run, which makes one more pass if any arrived during a pass.
 * While it works it holds the connection's lease (shared/domain/bank-connections/sync-requests.ts):
 * webhooks then only count themselves, and each pass reports whether any came (`moreRequested`), so
 * a busy connection's run grows by its passes, not by a signal per webhook, and its continue-as-new
 * does not race a stream of signals (the server refuses them as "closing" until the new run starts).
 * What follows the passes (marked synced, stale pending rows removed, recurring payments, the notice,
 * receipts, invoice payments) runs once for a burst's rows, beside the passes that come meanwhile:
 * a webhook waits for the pass its transaction is in, not for the follow-ups of the one before.
 */
export const syncConnection: SyncConnectionWorkflow = async (input) => {
  // A run exists because someone asked for a sync (the starting signal, or a plain start).
  let pending = true;
  let manualSync = false;
  let passes = 0;
  const totals: SyncResult = { added: 0, modified: 0, removed: 0 };
  setHandler(syncRequested, (req) => {
    pending = true;
    manualSync ||= req.manualSync;
  });
  setHandler(syncStatus, () => ({ passes, pending, totals }));
  // The handler sets `pending` while a pass awaits; read it through a call, which the type checker does not narrow to false.
  const requestedSince = () => pending;
  const manualRequested = () => manualSync;
  // (patched: runs started before the history bound continue after as many passes as they did.)
  const runIsLong = () => {
    if (!patched('continue-as-new-by-history')) return passes >= PASSES_PER_RUN;
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= EVENTS_PER_RUN;
  };

  // (patched: runs started before the lease replay as they ran, with the follow-ups after every pass.)
  const leased = patched('sync-lease');
  // What the passes since the last follow-ups owe (carried over a continue-as-new), and those running.
  const owed = { passes: input.owed?.passes ?? 0, added: input.owed?.added ?? 0, manualSync: input.owed?.manualSync ?? false };
  let followingUp: Promise<void> | undefined;
  // Held until awaited: a rejection nobody has awaited yet would fail the workflow task, not the run.
  let followUpFailure: Error | undefined;
  let followedUpAt = Date.now();
  const startFollowUps = () => {
    if (followingUp || owed.passes === 0) return;
    const passed = { added: owed.added, manualSync: owed.manualSync };
    Object.assign(owed, { passes: 0, added: 0, manualSync: false });
    followedUpAt = Date.now();
    followingUp = (async () => {
      await finishSyncPasses({ connectionId: input.connectionId, ...passed });
      if (passed.added === 0) return;
      // Receipts waiting for a transaction may have just got one; incoming transfers may pay open invoices.
      await rematchOpenInboxItems({ teamId: input.teamId });
      await matchInvoicePayments({ teamId: input.teamId });
    })()
      .catch((err: unknown) => {
        followUpFailure ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        followingUp = undefined;
      });
  };
  const followUpsDone = async () => {
    while (followingUp) await followingUp;
    if (followUpFailure !== undefined) throw followUpFailure;
  };
  // Those running, then those owed since they started.
  const followUpsAll = async () => {
    await followUpsDone();
    startFollowUps();
    await followUpsDone();
  };
  let accountsReadAt = -Infinity;

  while (pending) {
    pending = false;
    const manual = manualRequested();
    manualSync = false;
    const readAccounts = manual || Date.now() - accountsReadAt >= ACCOUNTS_EVERY_MS;
    if (readAccounts) accountsReadAt = Date.now();
    const result = await syncBankConnection({
      connectionId: input.connectionId,
      manualSync: manual,
      ...(leased ? { afterPassesApart: true, readAccounts } : {}),
    });
    passes++;
    totals.added += result.added;
    totals.modified += result.modified;
    totals.removed += result.removed;
    if (result.skipped) {
      await followUpsAll();
      break;
    }
    if (leased) {
      if (result.moreRequested) pending = true;
      Object.assign(owed, { passes: owed.passes + 1, added: owed.added + result.added, manualSync: owed.manualSync || manual });
      if (requestedSince()) {
        if (Date.now() - followedUpAt >= FOLLOW_UPS_EVERY_MS) startFollowUps();
        if (runIsLong()) {
          await followUpsDone();
          await continueAsNew<typeof syncConnection>({ ...input, owed: { ...owed } });
        }
        continue;
      }
      // Nothing asked since the pass: the follow-ups start, and the lease goes back, or one more
      // pass is due beside them. Once given back, a request signals again, and meets this run.
      startFollowUps();
      if (!(await releaseSyncLease({ connectionId: input.connectionId }))) pending = true;
      else await followUpsAll();
      continue;
    }
    // Receipts waiting for a transaction may have just got one. (patched: runs started before this step replay unchanged.)
    if (result.added > 0 && patched('rematch-inbox-after-sync')) await rematchOpenInboxItems({ teamId: input.teamId });
    // Incoming transfers may pay open invoices. (patched as above.)
    if (result.added > 0 && patched('match-invoice-payments-after-sync')) await matchInvoicePayments({ teamId: input.teamId });
    if (requestedSince() && runIsLong()) await continueAsNew<typeof syncConnection>(input);
  }
  await condition(allHandlersFinished);
  return { ...totals, passes };
};
