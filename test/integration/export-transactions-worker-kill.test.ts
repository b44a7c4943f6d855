import { armInsertFault, type InsertFault } from '../support/insert-fault';
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';
import { exportTransactionsProgress, type ExportTransactionsProgress } from '../../shared/temporal/export-transactions/contract';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { postJsonAs, startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner, insertTransactions } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let smtp: SmtpSink;
let storeFault: InsertFault;
let api: TestApi | undefined;
const STORAGE_DIR = `.data/test-storage-export-kill-${process.pid}`;
const ACCOUNTANT = 'accountant@example.com';

const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
    // Storing the ZIP as a document fails, so the writing step keeps being retried (having written every row) until it clears.
    storeFault = await armInsertFault(tdb.db, 'export_store', {
      table: 'documents',
      when: `new.mime_type = 'application/zip'`,
      message: 'document store unavailable (test fault)',
    });
  },
  tearDown: async () => {
    await api?.stop();
    await smtp?.close();
    await rm(path.resolve(PROJECT_ROOT, STORAGE_DIR), { recursive: true, force: true });
  },
});

describe('ExportTransactions survives workers killed mid-run', () => {
  it('killed while storing and again while mailing, it ends with one document, one notice and one email', async () => {
    const shared = { SMTP_URL: smtp.url, TEMPORAL_TASK_QUEUE: uniqueTaskQueue('export-kill'), STORAGE_DIR };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db, 'Books');
    const teamId = owner.team.id;
    await insertTransactions(tdb.db, teamId, 2_500);
    const [tx] = await tdb.db('transactions').where({ teamId }).orderBy('date', 'desc').limit(1).select('id');
    await api.deps.storage.put(`${teamId}/kill-receipt.pdf`, Buffer.from('%PDF receipt'));
    await tdb.db('transaction_attachments').insert({
      teamId,
      transactionId: tx.id,
      name: 'receipt.pdf',
      mimeType: 'application/pdf',
      size: 12,
      storageKey: `${teamId}/kill-receipt.pdf`,
    });

    const workers: ChildProcess[] = [];
    const startWorker = () => workers[workers.push(spawnTs('worker/main.ts', { env, stdio: 'ignore' })) - 1];
    const kill = async (w: ChildProcess) => {
      await killHard(w);
      expect(isAlive(w.pid!)).toBe(false);
    };
    try {
      const first = startWorker();
      const started = (await postJsonAs(api, owner.sessionToken)('/transactions/export', { email: ACCOUNTANT })).data;
      const handle = (await api.deps.temporal.client()).workflow.getHandle(started.workflowId as string);
      const pendingAttempt = async (activity: string) => {
        const pending = (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === activity);
        return pending?.attempt ?? 0;
      };

      // 1. Every row written, the store refused: killed between (or inside) attempts of the writing step.
      await eventually(async () => (await pendingAttempt('writeTransactionExport')) >= 2, 60_000, 'storing to be retried');
      expect((await tdb.db('exports').where({ id: started.id }).first()).rowsWritten).toBe(2_500);
      await kill(first);
      expect(await tdb.db('documents').where({ teamId })).toEqual([]);

      // 2. Stored and announced, the accountant's mailbox refusing: killed while the mail is retried.
      await storeFault.clear();
      smtp.refuse.add(ACCOUNTANT);
      const second = startWorker();
      await eventually(async () => (await pendingAttempt('emailTransactionExport')) >= 2, 90_000, 'the mail to be retried');
      expect(await handle.query(exportTransactionsProgress)).toMatchObject({ stage: 'emailing', email: null });
      await kill(second);

      // 3. The mailbox back: a third worker finishes the run.
      smtp.refuse.delete(ACCOUNTANT);
      startWorker();
      const result: ExportTransactionsProgress = await handle.result();
      expect(result).toMatchObject({ stage: 'completed', email: 'sent', result: { rowsWritten: 2_500, receiptsWritten: 1 } });

      const documents = await tdb.db('documents').where({ teamId });
      expect(documents).toHaveLength(1);
      expect(documents[0]).toMatchObject({ id: result.result!.documentId, mimeType: 'application/zip' });
      expect(await tdb.db('exports').where({ id: started.id }).first()).toMatchObject({
        status: 'completed',
        documentId: documents[0].id,
        rowsWritten: 2_500,
        notifiedAt: expect.any(Date),
        emailedAt: expect.any(Date),
      });
      expect(await tdb.db('notifications').where({ teamId, type: 'export_ready' })).toHaveLength(1);
      await smtp.waitFor((m) => m.to.includes(ACCOUNTANT));
      expect(smtp.messages.filter((m) => m.to.includes(ACCOUNTANT))).toHaveLength(1);
      // The file downloads whole through the document library.
      const file = await api.fetch(`/documents/${documents[0].id}/file`, { token: owner.sessionToken });
      expect(file.status).toBe(200);
      expect(Number(file.headers.get('content-length'))).toBe(Number(documents[0].size));
    } finally {
      for (const w of workers) await killHard(w);
    }
  }, 240_000);
});
