import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowContract } from '../contract';

export interface BankConsentInput {
  connectionId: string;
  teamId: string;
  /** ISO 8601: when the provider's consent ends. A later change arrives as `consentExpiryChanged`. */
  expiresAt: string;
  /** How long before expiry the team is told (BANK_CONSENT_NOTICE_LEAD, fixed when the run starts). */
  leadMs: number;
}

export type ConsentNoticeKind = 'expiring' | 'expired';

/** sent: this call wrote it; already: an earlier attempt did; stale: the connection's expiry is another one now (or it is gone). */
export type ConsentNoticeOutcome = 'sent' | 'already' | 'stale';

export type BankConsentStage = 'waiting' | 'warned' | 'expired' | 'cleared';

export interface BankConsentResult {
  stage: Exclude<BankConsentStage, 'waiting' | 'warned'>;
  /** The expiry the run ended on (null: the connection no longer has one). */
  expiresAt: string | null;
  notices: ConsentNoticeKind[];
}

/** The connection's consent now ends at another time (a reconnect renewed it), or never (null). */
export const consentExpiryChanged = defineSignal<[{ expiresAt: string | null }]>('consentExpiryChanged');
export const consentStage = defineQuery<BankConsentStage>('consentStage');

export type BankConsentWorkflow = (input: BankConsentInput) => Promise<BankConsentResult>;

export const bankConsentContract = workflowContract<BankConsentWorkflow>('bankConsentExpiry');

/** One timer per connection: a new expiry is signalled to the run that waits, never a second run. */
export const bankConsentWorkflowId = (connectionId: string) => `bank-consent:${connectionId}`;
