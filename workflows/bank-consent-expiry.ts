import { condition, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { BankConsentActivities } from '../activities/banking/consent';
import { Stage } from '../shared/temporal/search-attribute-keys';
import {
  consentExpiryChanged,
  consentStage,
  type BankConsentResult,
  type BankConsentStage,
  type BankConsentWorkflow,
  type ConsentNoticeKind,
} from '../shared/temporal/bank-consent/contract';

const { sendConsentNotice } = proxyActivities<BankConsentActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/**
 * BankConsentExpiry (id `bank-consent:<connectionId>`): sleeps until the consent's expiry minus the
 * lead time → "expires soon" notice → sleeps until the expiry → "expired" notice → ends. A changed
 * expiry (a reconnect renewed the consent) is signalled and starts the waiting over for it; null ends
 * the run. Each notice is written once per expiry by the activity (the database remembers which
 * expiry it was sent for), so a retried activity or a replayed run never notifies twice.
 */
export const bankConsentExpiry: BankConsentWorkflow = async (input) => {
  let stage: BankConsentStage = 'waiting';
  // An object so its reads are not narrowed away between awaits.
  const current = { expiresAt: input.expiresAt as string | null, changed: false };
  const notices: ConsentNoticeKind[] = [];
  const setStage = (s: BankConsentStage) => {
    stage = s;
    upsertSearchAttributes([{ key: Stage, value: s }]);
  };
  setHandler(consentStage, () => stage);
  setHandler(consentExpiryChanged, ({ expiresAt }) => {
    if (expiresAt === current.expiresAt) return; // the start's own signal, or a repeat
    current.expiresAt = expiresAt;
    current.changed = true;
  });
  // A function, so a read after `current.changed = false` is not narrowed to false (a signal may have set it since).
  const changed = () => current.changed;
  // Workflow time is deterministic (replayed), so waiting "until" a moment is safe; true when the expiry changed first.
  const changedBefore = async (atMs: number) => {
    const ms = atMs - Date.now();
    return ms > 0 ? condition(changed, ms) : changed();
  };
  const end = (s: BankConsentResult['stage']): BankConsentResult => {
    setStage(s);
    return { stage: s, expiresAt: current.expiresAt, notices };
  };
  const notice = async (expiresAt: string, kind: ConsentNoticeKind) => {
    const outcome = await sendConsentNotice({ connectionId: input.connectionId, expiresAt, kind });
    if (outcome !== 'stale') notices.push(kind);
    return outcome;
  };

  for (;;) {
    current.changed = false;
    const expiresAt = current.expiresAt;
    if (expiresAt === null) return end('cleared');
    setStage('waiting');
    const at = Date.parse(expiresAt);

    if (await changedBefore(at - input.leadMs)) continue;
    // A consent granted with less than the lead time left is warned about at once; one already over is not.
    if (Date.now() < at && (await notice(expiresAt, 'expiring')) === 'stale') {
      // The connection has another expiry (its signal is on the way) or is gone.
      if (changed()) continue;
      return end('cleared');
    }
    setStage('warned');

    if (await changedBefore(at)) continue;
    if ((await notice(expiresAt, 'expired')) === 'stale') {
      if (changed()) continue;
      return end('cleared');
    }
    return end('expired');
  }
};
