import { createActivityDeps, closeActivityDeps, type ActivityDeps } from '../../activities';
import { receiptActivities } from '../../activities/receipts/ingest';
import { pdfReceipt } from '../fixtures/receipts';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

let deps: ActivityDeps;
const tdb = withTestDatabase({
  setUp: () => {
    deps = createActivityDeps(testConfig({ STORAGE_DIR: `.data/test-storage-ingest-${process.pid}` }), tdb.db);
  },
  tearDown: () => closeActivityDeps(deps),
});

describe('storing a receipt', () => {
  it('keeps one document when the same file arrives twice at the same moment', async () => {
    const { team } = await createTeamAndOwner(tdb.db, 'Race');
    const bytes = await pdfReceipt({ merchant: 'Twice', date: '2026-02-02', items: [['x', 2]], vatRate: 19, currency: 'EUR' });
    await deps.storage.put(`${team.id}/incoming/race.pdf`, bytes);
    const activities = receiptActivities(deps);
    const input = (reference: string) => ({
      teamId: team.id,
      source: 'email' as const,
      reference,
      storedKey: `${team.id}/incoming/race.pdf`,
      mimeType: 'application/pdf',
    });
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((r) => activities.ingestReceipt(input(r))));
    expect(new Set(results.map((r) => r.documentId)).size).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await tdb.db('documents').where({ teamId: team.id })).toHaveLength(1);
    expect(await tdb.db('inbox_items').where({ teamId: team.id })).toHaveLength(4);
  });

  it('stores text with NUL characters (pdf.js keeps them for unmapped glyphs), which PostgreSQL text refuses', async () => {
    const { team } = await createTeamAndOwner(tdb.db, 'Glyphs');
    const bytes = await pdfReceipt({ merchant: 'Glyphs', date: '2026-02-03', items: [['y', 3]], vatRate: 19, currency: 'EUR' });
    await deps.storage.put(`${team.id}/incoming/glyphs.pdf`, bytes);
    const fields = { amount: 3, currency: 'EUR', date: '2026-02-03', merchant: 'Caf\u0000 Glyph', taxAmount: null, taxRate: null };
    const acts = receiptActivities({
      ...deps,
      receipts: {
        extract: () => Promise.resolve({ fields, method: 'pdf_text' as const, text: 'Caf\u0000 Glyph\nTotal 3.00' }),
        close: () => Promise.resolve(),
      },
    });
    const { inboxItemId, documentId } = await acts.ingestReceipt({
      teamId: team.id,
      source: 'email',
      reference: 'glyphs',
      storedKey: `${team.id}/incoming/glyphs.pdf`,
      mimeType: 'application/pdf',
    });
    expect((await acts.extractReceipt({ inboxItemId })).merchant).toBe('Caf Glyph');
    expect(await tdb.db('documents').where({ id: documentId }).first()).toMatchObject({
      content: 'Caf Glyph\nTotal 3.00',
      processingStatus: 'completed',
    });
    expect(await tdb.db('inbox_items').where({ id: inboxItemId }).first()).toMatchObject({ displayName: 'Caf Glyph', amount: 3 });
  });

  it('sends a receipt that arrives again after it was attached to the same transaction, without a second attachment', async () => {
    const { team } = await createTeamAndOwner(tdb.db, 'Again');
    const bytes = await pdfReceipt({ merchant: 'Again Store', date: '2026-03-03', items: [['z', 12.5]], vatRate: 19, currency: 'EUR' });
    await deps.storage.put(`${team.id}/incoming/again.pdf`, bytes);
    const [tx] = await tdb
      .db('transactions')
      .insert({ teamId: team.id, date: '2026-03-03', name: 'AGAIN STORE', amount: -12.5, currency: 'EUR' })
      .returning('id');
    // A look-alike the second copy must not be given to.
    await tdb.db('transactions').insert({ teamId: team.id, date: '2026-03-04', name: 'AGAIN STORE', amount: -12.5, currency: 'EUR' });
    const acts = receiptActivities(deps);
    const input = (reference: string) => ({
      teamId: team.id,
      source: 'email' as const,
      reference,
      storedKey: `${team.id}/incoming/again.pdf`,
      mimeType: 'application/pdf',
    });

    const first = await acts.ingestReceipt(input('first'));
    await acts.extractReceipt({ inboxItemId: first.inboxItemId });
    await tdb
      .db('match_suggestions')
      .insert({ teamId: team.id, inboxItemId: first.inboxItemId, transactionId: tx.id, matchType: 'manual', confidence: 1 });
    expect(
      await acts.decideMatch({ teamId: team.id, inboxItemId: first.inboxItemId, transactionId: tx.id, decision: 'confirm', via: 'api' }),
    ).toBe('confirmed');

    const second = await acts.ingestReceipt(input('second'));
    expect(second).toMatchObject({ documentId: first.documentId, duplicate: true });
    await acts.extractReceipt({ inboxItemId: second.inboxItemId });
    expect(await acts.matchReceipt({ teamId: team.id, inboxItemId: second.inboxItemId })).toMatchObject({
      outcome: 'auto_matched',
      transactionId: tx.id,
    });
    expect(await tdb.db('inbox_items').where({ id: second.inboxItemId }).first()).toMatchObject({ status: 'done', transactionId: tx.id });
    expect(await tdb.db('transaction_attachments').where({ teamId: team.id })).toHaveLength(1);
  });

  it('tells the team of a suggestion and of an auto-match once, however often matching is retried', async () => {
    const { team } = await createTeamAndOwner(tdb.db, 'Retried');
    const acts = receiptActivities(deps);
    const receipt = async (merchant: string, date: string, amount: number) => {
      const bytes = await pdfReceipt({ merchant, date, items: [['x', amount]], vatRate: 19, currency: 'EUR' });
      await deps.storage.put(`${team.id}/incoming/${merchant}.pdf`, bytes);
      await tdb.db('transactions').insert({ teamId: team.id, date, name: merchant.toUpperCase(), amount: -amount, currency: 'EUR' });
      const { inboxItemId } = await acts.ingestReceipt({
        teamId: team.id,
        source: 'email',
        reference: merchant,
        storedKey: `${team.id}/incoming/${merchant}.pdf`,
        mimeType: 'application/pdf',
      });
      await acts.extractReceipt({ inboxItemId });
      return inboxItemId;
    };
    // An activity retried after its work committed (the worker lost before reporting) runs it again.
    const twice = async (inboxItemId: string) => {
      const first = await acts.matchReceipt({ teamId: team.id, inboxItemId });
      expect(await acts.matchReceipt({ teamId: team.id, inboxItemId })).toEqual(first);
      return first.outcome;
    };

    expect(await twice(await receipt('Suggested Shop', '2026-04-01', 31.5))).toBe('suggested');
    await tdb.db('teams').where({ id: team.id }).update({ autoMatch: true });
    expect(await twice(await receipt('Automatic Shop', '2026-04-02', 47.25))).toBe('auto_matched');
    const types = await tdb.db('notifications').where({ teamId: team.id }).pluck('type');
    expect(types.sort()).toEqual(['inbox_needs_review', 'receipt_matched']);
  });
});
