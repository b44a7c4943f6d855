import { documentsLeftPending } from '../../shared/domain/documents/upload';
import { startDocumentProcessing } from '../../shared/temporal/document-processing/calls';
import type { ApiDeps } from '../deps';
import { repeatingPass, type RepeatingPass } from './repeating-pass';

/**
 * Starts DocumentProcessing for documents an upload stored and left `pending` (the API died, or
 * Temporal was unreachable, between the row and the start). No claim is needed: the workflow id
 * `document:<id>` makes a start that another process or the upload itself made too find the one run.
 */
export function startDocumentSweep(
  deps: Pick<ApiDeps, 'db' | 'temporal' | 'logger' | 'config'>,
  opts: { intervalMs: number; graceMs: number },
): RepeatingPass {
  const log = deps.logger.child({ component: 'document-sweep' });
  return repeatingPass(
    async () => {
      const left = await documentsLeftPending(deps.db, { graceMs: opts.graceMs, limit: 100 });
      for (const doc of left) {
        try {
          await startDocumentProcessing(
            deps.temporal,
            { teamId: doc.teamId, documentId: doc.id, decisionTimeoutMs: deps.config.RECEIPT_DECISION_TIMEOUT },
            doc,
          );
        } catch (err) {
          // Temporal still away: the next pass tries again, and the rest of this one would fail the same way.
          log.warn({ err, documentId: doc.id }, 'could not start processing a pending document; it stays pending');
          break;
        }
      }
      return left.length;
    },
    { intervalMs: opts.intervalMs, log, what: 'document sweep', audit: 'outbox:document-sweep' },
  );
}
