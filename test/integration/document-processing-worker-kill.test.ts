import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';
import { startDocumentProcessing } from '../../shared/temporal/document-processing/calls';
import {
  documentProcessingId,
  documentProcessingProgress,
  type DocumentProcessingWorkflow,
} from '../../shared/temporal/document-processing/contract';
import { receiptIngestionId, stageQuery } from '../../shared/temporal/receipt-ingestion/contract';
import { pdfReceipt } from '../fixtures/receipts';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let api: TestApi;
const STORAGE_DIR = `.data/test-storage-documents-kill-${process.pid}`;

const tdb = withTestDatabase({
  tearDown: async () => {
    await api?.stop();
    await rm(path.resolve(PROJECT_ROOT, STORAGE_DIR), { recursive: true, force: true });
  },
});

describe('DocumentProcessing survives a worker killed mid-run', () => {
  it('killed while reading the file keeps retrying, then after restart processes the document once and hands it to the inbox once', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('document-kill'), STORAGE_DIR, RECEIPT_DECISION_TIMEOUT: '10m' };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db);
    await tdb.db('transactions').insert({ teamId: owner.team.id, date: '2026-06-02', name: 'NOTION LABS', amount: -96, currency: 'EUR' });
    const pdf = await pdfReceipt({ merchant: 'Notion', date: '2026-06-02', items: [['Team plan', 96]], vatRate: 19, currency: 'EUR' });
    // The row is there but its file is not yet (a storage outage): reading fails and is retried.
    const storageKey = `${owner.team.id}/notion-receipt.pdf`;
    const [doc] = await tdb
      .db('documents')
      .insert({
        teamId: owner.team.id,
        name: 'notion.pdf',
        storageKey,
        mimeType: 'application/pdf',
        size: pdf.length,
        sha256: createHash('sha256').update(pdf).digest('hex'),
      })
      .returning('*');

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      await startDocumentProcessing(api.deps.temporal, { teamId: owner.team.id, documentId: doc.id, decisionTimeoutMs: 600_000 }, doc);
      const client = await api.deps.temporal.client();
      const handle = client.workflow.getHandle<DocumentProcessingWorkflow>(documentProcessingId(doc.id));
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'reading the file to be retried',
      );
      expect(await handle.query(documentProcessingProgress)).toEqual({ stage: 'extracting', kind: null, receiptWorkflowId: null });
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;

      const file = path.resolve(PROJECT_ROOT, STORAGE_DIR, storageKey);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, pdf);
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });

      const receiptId = receiptIngestionId(owner.team.id, `document:${doc.id}`);
      expect(await handle.result()).toEqual({ stage: 'completed', kind: 'receipt', receiptWorkflowId: receiptId });
      const receipt = client.workflow.getHandle(receiptId);
      await eventually(
        async () => (await receipt.query(stageQuery)).stage === 'awaiting_decision',
        30_000,
        'the receipt to await a decision',
      );

      expect(await tdb.db('documents').where({ id: doc.id }).first()).toMatchObject({ processingStatus: 'completed', kind: 'receipt' });
      const items = await tdb.db('inbox_items').where({ teamId: owner.team.id, documentId: doc.id });
      expect(items).toHaveLength(1);
      expect(await tdb.db('match_suggestions').where({ inboxItemId: items[0].id })).toHaveLength(1);
      // One hand-off in the history: the replayed run did not start its child again.
      const started = (await handle.fetchHistory()).events?.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes) ?? [];
      expect(started).toHaveLength(1);
      expect(await tdb.db('documents').where({ teamId: owner.team.id })).toHaveLength(1);
      await receipt.terminate('test done');
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 120_000);
});
