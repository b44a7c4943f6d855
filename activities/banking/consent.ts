import { sendConsentNotice } from '../../shared/domain/bank-connections/consent';
import type { ConsentNoticeKind, ConsentNoticeOutcome } from '../../shared/temporal/bank-consent/contract';
import type { ActivityDeps } from '../deps';

export function bankConsentActivities({ db }: ActivityDeps) {
  return {
    /** BankConsentExpiry's notice: once per connection, expiry and kind, whatever the retries. */
    sendConsentNotice(input: { connectionId: string; expiresAt: string; kind: ConsentNoticeKind }): Promise<ConsentNoticeOutcome> {
      return sendConsentNotice(db, input);
    },
  };
}

export type BankConsentActivities = ReturnType<typeof bankConsentActivities>;
