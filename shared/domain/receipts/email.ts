import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import type { Storage } from '../../providers/storage';
import type { TemporalGateway } from '../../temporal/client';
import { startReceiptIngestion } from '../../temporal/receipt-ingestion/calls';
import { findTeamByInboxId } from '../teams/inbox-id';
import type { WebhookOutcome } from '../webhook-events/record';
import { isReceiptFile } from './file-types';

export interface EmailReceiptDeps {
  db: Db;
  temporal: TemporalGateway;
  storage: Storage;
  config: Pick<Config, 'RECEIPT_DECISION_TIMEOUT'>;
}

export interface EmailAttachment {
  /** The local part of the address it was sent to. */
  inboxId: string;
  /** Unique per attachment (message id and file name): the receipt's source message id. */
  reference: string;
  fileName: string;
  mimeType: string;
  /** Where `keepEmailAttachment` stored its bytes; null for a file that is not a receipt. */
  storedKey: string | null;
  sender: string;
}

/**
 * Keeps an attachment's bytes before the provider is told 200, so the event recorded for it is small
 * and can be acted on later (25 MB cannot travel in an event or a workflow's input). Content-
 * addressed, so a redelivery rewrites the same file. Files that are not receipts are not kept.
 */
export async function keepEmailAttachment(
  deps: Pick<EmailReceiptDeps, 'db' | 'storage'>,
  a: { inboxId: string; mimeType: string; bytes: Buffer },
): Promise<string | null> {
  if (!isReceiptFile(a.mimeType)) return null;
  const team = await findTeamByInboxId(deps.db, a.inboxId);
  if (!team) return null;
  const storedKey = `${team.id}/incoming/${createHash('sha256').update(a.bytes).digest('hex')}`;
  await deps.storage.put(storedKey, a.bytes);
  return storedKey;
}

/** An attachment mailed to a team's inbox address becomes a receipt; other files are dropped. */
export async function receiveEmailAttachment(deps: EmailReceiptDeps, a: EmailAttachment): Promise<WebhookOutcome> {
  const team = await findTeamByInboxId(deps.db, a.inboxId);
  if (!team) return { outcome: 'ignored' };
  if (!a.storedKey || !isReceiptFile(a.mimeType)) return { outcome: 'ignored', teamId: team.id };
  const workflowId = await startReceiptIngestion(deps.temporal, {
    teamId: team.id,
    source: 'email',
    reference: a.reference,
    storedKey: a.storedKey,
    mimeType: a.mimeType,
    fileName: a.fileName,
    sender: a.sender,
    decisionTimeoutMs: deps.config.RECEIPT_DECISION_TIMEOUT,
  });
  return { outcome: 'processed', teamId: team.id, workflowId };
}
