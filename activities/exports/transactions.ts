import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  announceExport,
  documentDownloadUrl,
  exportForRun,
  failExport,
  markExportEmailed,
  markExportRunning,
  recordExportProgress,
} from '../../shared/domain/transaction-exports/service';
import { teamNameOf } from '../../shared/domain/teams/current';
import { storedExport, storeExportDocument } from '../../shared/domain/transaction-exports/store';
import { writeExportZip } from '../../shared/domain/transaction-exports/write';
import type { ExportTransactionsInput, WrittenExport } from '../../shared/temporal/export-transactions/contract';
import type { ActivityDeps } from '../deps';
import { sendOnce } from '../messaging/send-once';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function transactionExportActivities({ db, storage, mailer, config }: ActivityDeps) {
  const loadExport = async ({ exportId, teamId }: ExportTransactionsInput) => {
    const exp = await exportForRun(db, teamId, exportId);
    // The API commits the row before it starts the run: a missing row is a deleted team, and retrying will not bring it back.
    if (!exp) throw ApplicationFailure.nonRetryable(`export ${exportId} not found`, 'ExportNotFound');
    return exp;
  };

  return {
    /**
     * Writes the ZIP in a temporary directory of this worker and stores it as a document. All in one
     * activity: the files on disk exist only where it runs. Done already (a worker lost after the
     * commit) is answered from the row; cut off before it, the retry writes the file again.
     */
    async writeTransactionExport(input: ExportTransactionsInput): Promise<WrittenExport> {
      const done = await storedExport(db, input.exportId);
      if (done) return done;
      const exp = await loadExport(input);
      await markExportRunning(db, exp.id);
      const dir = await mkdtemp(path.join(tmpdir(), 'finops-export-'));
      try {
        const zip = await writeExportZip(
          { db, storage },
          { teamId: exp.teamId, filters: exp.filters, formats: exp.formats, createdAt: exp.createdAt },
          dir,
          {
            page: async (rowsWritten) => {
              Context.current().heartbeat({ rowsWritten });
              await recordExportProgress(db, exp.id, rowsWritten);
            },
            alive: () => Context.current().heartbeat(),
          },
        );
        return await storeExportDocument({ db, storage }, exp, zip);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    announceTransactionExport: ({ exportId, teamId }: ExportTransactionsInput) => announceExport(db, teamId, exportId),

    /** Mails the link to the address the request gave, once: `emailed_at` after the fact, sendOnce's claim across retries. */
    async emailTransactionExport(input: ExportTransactionsInput): Promise<'sent' | 'skipped'> {
      const exp = await loadExport(input);
      if (!exp.email || !exp.documentId || exp.emailedAt) return 'skipped';
      const teamName = (await teamNameOf(db, exp.teamId)) ?? 'A team';
      const url = documentDownloadUrl(config.PUBLIC_URL, exp.documentId);
      const to = exp.email;
      const text = [
        'Hello,',
        '',
        `${teamName} has exported ${plural(exp.rowsWritten, 'transaction', 'transactions')} with ${plural(exp.receiptsWritten, 'receipt', 'receipts')} for you.`,
        'The ZIP holds transactions.csv, transactions.xlsx and the receipts (receipts/).',
        '',
        `Download: ${url}`,
        '',
        'The link needs an API key or sign-in of the team with access to its documents.',
      ].join('\n');
      const outcome = await sendOnce(db, () =>
        mailer.send({
          to,
          subject: `${teamName}: transaction export (${plural(exp.rowsWritten, 'transaction', 'transactions')})`,
          text,
          // The same Message-ID on a resend after a crash, so the mailbox keeps one copy.
          messageId: `<export-${exp.id}@${config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : 'localhost'}>`,
        }),
      );
      await markExportEmailed(db, exp.id);
      return outcome;
    },

    failTransactionExport: ({ exportId, teamId, error }: ExportTransactionsInput & { error: string }) =>
      failExport(db, teamId, exportId, error),
  };
}

export type TransactionExportActivities = ReturnType<typeof transactionExportActivities>;
