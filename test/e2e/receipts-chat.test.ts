import { queryReceiptStage } from '../../shared/temporal/receipt-ingestion/calls';
import { receiptIngestionId, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';
import { pdfReceipt, photoReceipt } from '../fixtures/receipts';
import { signedDelivery, startMessagingFake } from '../fakes/messaging';
import { withStack } from '../support/stack';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import type { UntypedJson } from '../support/untyped-json';
import { inboxItemSchema } from '../../shared/domain/inbox/schema';
import { InboxId, Stage, TeamId } from '../../shared/temporal/search-attribute-keys';
import { chatReplyId } from '../../shared/temporal/send-chat-message/contract';

const TOKEN = 'test-messaging-token';
const APP_SECRET = 'test-app-secret';
const PHONE = '4915112345678';

let messaging: Awaited<ReturnType<typeof startMessagingFake>>;
let n = 0;
// beforeAll may fail part way: the teardown closes only what was started.
const started: { messaging?: typeof messaging } = {};

beforeAll(async () => {
  messaging = started.messaging = await startMessagingFake(TOKEN);
});
afterAll(() => started.messaging?.close());
const stack = withStack('receipts', () => ({
  MESSAGING_API_URL: messaging.url,
  MESSAGING_ACCESS_TOKEN: TOKEN,
  MESSAGING_APP_SECRET: APP_SECRET,
  MESSAGING_VERIFY_TOKEN: 'verify-me',
  RECEIPT_DECISION_TIMEOUT: '4s',
}));

const deliver = (m: Record<string, unknown>) => {
  const signed = signedDelivery(APP_SECRET, [
    { from: PHONE, id: `wamid.in${++n}`, timestamp: String(Math.floor(Date.now() / 1000)), ...m },
  ]);
  return stack.api.fetch('/webhook/messaging', { method: 'POST', headers: signed.headers, body: signed.raw });
};
const receiptRun = (sourceMessageId: string) =>
  stack.worker.client.workflow.getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(stack.acme.team.id, sourceMessageId));
const textTo = (phone: string, fragment: string) =>
  messaging.waitFor((s) => s.to === phone && s.type === 'text' && s.body.text.body.includes(fragment));

async function sendPdf(merchant: string, date: string, items: Array<[string, number]>) {
  const bytes = await pdfReceipt({ merchant, date, items, vatRate: 19, currency: 'EUR' });
  const mediaId = `media-${++n}`;
  messaging.addMedia(mediaId, bytes, 'application/pdf');
  const res = await deliver({ type: 'document', document: { id: mediaId, mime_type: 'application/pdf', filename: `${merchant}.pdf` } });
  expect(res.status).toBe(200);
  return `wamid.in${n}`;
}

describe('receipts by chat', () => {
  it('verifies the subscription handshake', async () => {
    const ok = await stack.api.fetch('/webhook/messaging?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=12345');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('12345');
    const bad = await stack.api.fetch('/webhook/messaging?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1');
    expect(bad.status).toBe(403);
    expect((await bad.json()).error).toBe('Forbidden');
  });

  it('welcomes an unknown sender, connects by inbox id, and refuses a bad signature', async () => {
    await deliver({ type: 'text', text: { body: 'hello' } });
    const hello = `wamid.in${n}`;
    await textTo(PHONE, 'Connect inbox');
    await deliver({ type: 'text', text: { body: `Connect inbox ${stack.acme.team.inboxId}` } });
    const connect = `wamid.in${n}`;
    await textTo(PHONE, 'Connected to Acme');
    expect(await stack.tdb.db('messaging_connections').where({ phoneNumber: PHONE }).first()).toMatchObject({ teamId: stack.acme.team.id });
    // The reply runs: the welcome went to a number of no team, the confirmation is the team's.
    const replyTeam = async (incoming: string) =>
      (await stack.worker.client.workflow.getHandle(chatReplyId(incoming)).describe()).typedSearchAttributes.get(TeamId);
    expect(await replyTeam(hello)).toBeUndefined();
    expect(await replyTeam(connect)).toBe(stack.acme.team.id);
    const forged = await stack.api.fetch('/webhook/messaging', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
      body: '{}',
    });
    expect(forged.status).toBe(401);
  });

  it('a PDF receipt: processing reaction, suggestion with confirm/decline buttons, confirm attaches it', async () => {
    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-07-01', name: 'COFFEE CORNER BERLIN', amount: -23.8, currency: 'EUR' })
      .returning('*');
    await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-03-01', name: 'Hardware store', amount: -199, currency: 'EUR' });
    const msgId = await sendPdf('Coffee Corner', '2026-07-01', [
      ['Latte', 4.8],
      ['Beans 1kg', 19],
    ]);
    await messaging.waitFor((s) => s.type === 'reaction' && s.body.reaction.message_id === msgId);
    const suggestion = await messaging.waitFor((s) => s.type === 'interactive');
    const buttons = suggestion.body.interactive.action.buttons.map((b: UntypedJson) => b.reply.id);
    const item = await stack.tdb.db('inbox_items').where({ teamId: stack.acme.team.id, reference: msgId }).first();
    expect(item).toMatchObject({
      status: 'suggested_match',
      amount: 23.8,
      currency: 'EUR',
      date: '2026-07-01',
      displayName: 'Coffee Corner',
    });
    expect(buttons).toEqual([`confirm:${item.id}:${tx.id}`, `decline:${item.id}:${tx.id}`]);
    expect(suggestion.body.interactive.body.text).toContain('23.80 EUR');

    const handle = receiptRun(msgId);
    expect((await queryReceiptStage(stack.api.deps.temporal, handle.workflowId)).stage).toBe('awaiting_decision');
    await deliver({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: buttons[0], title: 'Confirm' } } });
    await handle.result();
    await textTo(PHONE, 'Match confirmed');
    const attachment = await stack.tdb.db('transaction_attachments').where({ transactionId: tx.id }).first();
    expect(attachment).toMatchObject({ inboxItemId: item.id, mimeType: 'application/pdf' });
    expect((await stack.tdb.db('inbox_items').where({ id: item.id }).first()).status).toBe('done');
    const desc = await handle.describe();
    expect(desc.typedSearchAttributes.get(InboxId)).toBe(item.id);
    expect(desc.typedSearchAttributes.get(Stage)).toBe('confirmed');

    // A late second press is answered, and changes nothing.
    await deliver({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: buttons[1], title: 'Decline' } } });
    await textTo(PHONE, 'already handled');
  });

  it('a PNG photo of a receipt: read by OCR, suggested with buttons, confirm attaches the image', async () => {
    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-06-12', name: 'PAYPAL *HARBOUR CAFE', amount: -17.4, currency: 'EUR' })
      .returning('*');
    const png = await photoReceipt(
      {
        merchant: 'Harbour Cafe',
        date: '2026-06-12',
        items: [
          ['Lunch', 14.9],
          ['Water', 2.5],
        ],
        vatRate: 7,
        currency: 'EUR',
      },
      'image/png',
    );
    const mediaId = `media-${++n}`;
    messaging.addMedia(mediaId, png, 'image/png');
    expect((await deliver({ type: 'image', image: { id: mediaId, mime_type: 'image/png', caption: 'lunch' } })).status).toBe(200);
    const msgId = `wamid.in${n}`;

    const suggestion = await messaging.waitFor((s) => s.type === 'interactive' && s.body.interactive.body.text.includes('Harbour Cafe'));
    const item = await stack.tdb.db('inbox_items').where({ teamId: stack.acme.team.id, reference: msgId }).first();
    expect(item).toMatchObject({
      status: 'suggested_match',
      amount: 17.4,
      currency: 'EUR',
      date: '2026-06-12',
      taxAmount: 1.14,
      taxRate: 7,
      mimeType: 'image/png',
      extractionMethod: 'ocr',
    });
    const buttons = suggestion.body.interactive.action.buttons.map((b: UntypedJson) => b.reply.id);
    expect(buttons).toEqual([`confirm:${item.id}:${tx.id}`, `decline:${item.id}:${tx.id}`]);
    expect(suggestion.body.interactive.body.text).toContain('17.40 EUR');

    await deliver({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: buttons[0], title: 'Confirm' } } });
    await receiptRun(msgId).result();
    await textTo(PHONE, 'Match confirmed');
    expect(await stack.tdb.db('transaction_attachments').where({ transactionId: tx.id }).first()).toMatchObject({
      inboxItemId: item.id,
      mimeType: 'image/png',
      size: png.length,
    });
  });

  it('decline puts the item back to pending; no answer expires the suggestion', async () => {
    await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-08-10', name: 'Book Shop', amount: -42, currency: 'EUR' });
    const declineId = await sendPdf('Book Shop', '2026-08-10', [['Novel', 42]]);
    const s1 = await messaging.waitFor((s) => s.type === 'interactive' && s.body.interactive.body.text.includes('Book Shop'));
    await deliver({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: s1.body.interactive.action.buttons[1].reply.id } },
    });
    await receiptRun(declineId).result();
    await textTo(PHONE, 'Match declined');
    const declined = await stack.tdb.db('inbox_items').where({ reference: declineId }).first();
    expect(declined.status).toBe('pending');
    expect((await stack.tdb.db('match_suggestions').where({ inboxItemId: declined.id }).first()).status).toBe('declined');

    await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-09-05', name: 'Florist', amount: -15.5, currency: 'EUR' });
    const expireId = await sendPdf('Florist', '2026-09-05', [['Tulips', 15.5]]);
    const result = await receiptRun(expireId).result();
    expect(result.stage).toBe('expired');
    await textTo(PHONE, 'expired');
    const expired = await stack.tdb.db('inbox_items').where({ reference: expireId }).first();
    expect(expired.status).toBe('pending');
    expect((await stack.tdb.db('match_suggestions').where({ inboxItemId: expired.id }).first()).status).toBe('expired');
  });

  it('refuses unsupported types and unconnected senders; a redelivery starts nothing new', async () => {
    await deliver({ type: 'document', document: { id: 'x', mime_type: 'application/zip', filename: 'a.zip' } });
    await textTo(PHONE, 'not supported');
    const stranger = signedDelivery(APP_SECRET, [
      { from: '15550000000', id: 'wamid.stranger', type: 'image', image: { id: 'img', mime_type: 'image/png' } },
    ]);
    await stack.api.fetch('/webhook/messaging', { method: 'POST', headers: stranger.headers, body: stranger.raw });
    await textTo('15550000000', 'Connect inbox');

    const bytes = await pdfReceipt({ merchant: 'Twice', date: '2026-01-01', items: [['x', 1]], vatRate: 19, currency: 'EUR' });
    messaging.addMedia('media-twice', bytes, 'application/pdf');
    const again = signedDelivery(APP_SECRET, [
      { from: PHONE, id: 'wamid.twice', type: 'document', document: { id: 'media-twice', mime_type: 'application/pdf' } },
    ]);
    await stack.api.fetch('/webhook/messaging', { method: 'POST', headers: again.headers, body: again.raw });
    await stack.api.fetch('/webhook/messaging', { method: 'POST', headers: again.headers, body: again.raw });
    await receiptRun('wamid.twice').result();
    const runs = [];
    for await (const w of stack.worker.client.workflow.list({ query: `WorkflowId = 'receipt:${stack.acme.team.id}:wamid.twice'` }))
      runs.push(w);
    expect(runs).toHaveLength(1);
    expect(await stack.tdb.db('inbox_items').where({ reference: 'wamid.twice' })).toHaveLength(1);
  });

  it('says so when a photo cannot be read, instead of promising a match', async () => {
    messaging.addMedia('media-garbled', Buffer.from('\xff\xd8\xff this is not really a JPEG'), 'image/jpeg');
    await deliver({ id: 'wamid.garbled', type: 'image', image: { id: 'media-garbled', mime_type: 'image/jpeg' } });
    expect((await receiptRun('wamid.garbled').result()).stage).toBe('no_match');
    await textTo(PHONE, 'its total could not be read');
    const item = await stack.tdb.db('inbox_items').where({ reference: 'wamid.garbled' }).first();
    expect(item).toMatchObject({ status: 'no_match', extractionMethod: null });
  });

  it('keeps a number with its team: connecting it to another team is refused with a clear reply', async () => {
    const beta = await createTeamAndOwner(stack.tdb.db, 'Beta');
    await deliver({ type: 'text', text: { body: `Connect inbox ${beta.team.inboxId}` } });
    await textTo(PHONE, 'already connected to another team');
    expect(await stack.tdb.db('messaging_connections').where({ phoneNumber: PHONE })).toEqual([
      expect.objectContaining({ teamId: stack.acme.team.id }),
    ]);
  });

  it('recognises the same file sent twice: two inbox items, one stored document; the caption becomes the note', async () => {
    const bytes = await pdfReceipt({
      merchant: 'Unmatched Kiosk',
      date: '2025-02-02',
      items: [['Gum', 1.2]],
      vatRate: 19,
      currency: 'EUR',
    });
    messaging.addMedia('media-same-1', bytes, 'application/pdf');
    messaging.addMedia('media-same-2', bytes, 'application/pdf');
    await deliver({
      id: 'wamid.same1',
      type: 'document',
      document: { id: 'media-same-1', mime_type: 'application/pdf', filename: 'kiosk.pdf', caption: 'parking meter' },
    });
    await deliver({
      id: 'wamid.same2',
      type: 'document',
      document: { id: 'media-same-2', mime_type: 'application/pdf', filename: 'kiosk-again.pdf' },
    });
    for (const id of ['wamid.same1', 'wamid.same2']) expect((await receiptRun(id).result()).stage).toBe('no_match');
    const items = await stack.tdb.db('inbox_items').whereIn('reference', ['wamid.same1', 'wamid.same2']).orderBy('reference');
    expect(items).toHaveLength(2);
    expect(items[0].documentId).toBe(items[1].documentId);
    expect(items.map((i: UntypedJson) => i.note)).toEqual(['parking meter', null]);
    expect(
      await stack.tdb
        .db('documents')
        .where({ teamId: stack.acme.team.id, sha256: (await stack.tdb.db('documents').where({ id: items[0].documentId }).first()).sha256 }),
    ).toHaveLength(1);
  });
});

describe('the inbox API', () => {
  it('shows the team inbox id, lists the receipt with its suggestion, confirms through the same workflow, and serves the file', async () => {
    const team = (await (await stack.api.fetch('/teams/current', { token: stack.acme.sessionToken })).json()).data;
    expect(team).toMatchObject({
      id: stack.acme.team.id,
      inboxId: stack.acme.team.inboxId,
      inboxEmail: `${stack.acme.team.inboxId}@inbox.finops.local`,
    });

    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-10-03', name: 'Stationery World', amount: -64.2, currency: 'EUR' })
      .returning('*');
    const msgId = await sendPdf('Stationery World', '2026-10-03', [['Paper', 64.2]]);
    await messaging.waitFor((s) => s.type === 'interactive' && s.body.interactive.body.text.includes('Stationery World'));
    const list = (await (await stack.api.fetch('/inbox?statuses=suggested_match', { token: stack.acme.sessionToken })).json()).data;
    const item = list.find((i: UntypedJson) => i.displayName === 'Stationery World');
    expect(Object.keys(item).sort()).toEqual(Object.keys(inboxItemSchema.shape).sort());
    expect(item).toMatchObject({
      amount: 64.2,
      currency: 'EUR',
      extractionMethod: 'pdf_text',
      documentStatus: 'completed',
      suggestion: { transactionId: tx.id, status: 'pending' },
    });

    const res = await stack.api.fetch(`/inbox/${item.id}/confirm`, {
      method: 'POST',
      token: stack.acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactionId: tx.id }),
    });
    expect((await res.json()).data.outcome).toBe('signalled');
    const result = await receiptRun(msgId).result();
    expect(result.stage).toBe('confirmed');
    expect((await (await stack.api.fetch(`/inbox/${item.id}`, { token: stack.acme.sessionToken })).json()).data).toMatchObject({
      status: 'done',
      transactionId: tx.id,
    });

    // "Paper" is only a line on the receipt, not its merchant or file name.
    const byContent = (await (await stack.api.fetch('/inbox?q=paper', { token: stack.acme.sessionToken })).json()).data;
    expect(byContent.map((i: UntypedJson) => i.id)).toEqual([item.id]);
    expect((await (await stack.api.fetch('/inbox?q=nothing-says-this', { token: stack.acme.sessionToken })).json()).data).toEqual([]);

    const file = await stack.api.fetch(`/inbox/${item.id}/file`, { token: stack.acme.sessionToken });
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // Manual match, for a receipt nothing matched: a transaction of another team is refused and changes nothing.
    const json = (body: unknown) => ({
      method: 'POST',
      token: stack.acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const lonely = (await (await stack.api.fetch('/inbox?q=parking', { token: stack.acme.sessionToken })).json()).data[0];
    expect(lonely).toMatchObject({ status: 'no_match', note: 'parking meter' });
    const nosy = await createTeamAndOwner(stack.tdb.db, 'Elsewhere');
    const [foreign] = await stack.tdb
      .db('transactions')
      .insert({ teamId: nosy.team.id, date: '2025-02-02', name: 'KIOSK', amount: -1.2, currency: 'EUR' })
      .returning('id');
    const refused = await stack.api.fetch(`/inbox/${lonely.id}/match`, json({ transactionId: foreign.id }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).details).toEqual([{ field: 'transactionId', message: 'no such transaction in your team' }]);
    expect((await stack.tdb.db('inbox_items').where({ id: lonely.id }).first()).status).toBe('no_match');
    const [own] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2025-02-03', name: 'PARKING', amount: -1.2, currency: 'EUR' })
      .returning('id');
    const matched = await stack.api.fetch(`/inbox/${lonely.id}/match`, json({ transactionId: own.id }));
    expect((await matched.json()).data).toMatchObject({ status: 'done', transactionId: own.id });
    expect(await stack.tdb.db('transaction_attachments').where({ transactionId: own.id, inboxItemId: lonely.id })).toHaveLength(1);
    expect((await stack.api.fetch(`/inbox/${lonely.id}/match`, json({ transactionId: own.id }))).status).toBe(409);
    const corrected = await stack.api.fetch(`/inbox/${lonely.id}`, {
      ...json({ displayName: 'City parking', note: null }),
      method: 'PATCH',
    });
    expect((await corrected.json()).data).toMatchObject({ displayName: 'City parking', note: null, status: 'done' });

    const again = await stack.api.fetch(`/inbox/${item.id}/decline`, {
      method: 'POST',
      token: stack.acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactionId: tx.id }),
    });
    expect(again.status).toBe(409);
    expect(
      (await stack.api.fetch(`/inbox/${item.id}`, { token: (await createTeamAndOwner(stack.tdb.db, 'Nosy')).sessionToken })).status,
    ).toBe(404);
    expect((await stack.api.fetch(`/inbox/${item.id}`, { method: 'DELETE', token: stack.acme.sessionToken })).status).toBe(204);
    expect((await stack.api.fetch(`/inbox/${item.id}`, { token: stack.acme.sessionToken })).status).toBe(404);
  });
});

describe('the inbox over the typed tRPC client', () => {
  const suggested = async (merchant: string, date: string, amount: number) => {
    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date, name: merchant.toUpperCase(), amount: -amount, currency: 'EUR' })
      .returning('*');
    const msgId = await sendPdf(merchant, date, [['Item', amount]]);
    await messaging.waitFor((s) => s.type === 'interactive' && s.body.interactive.body.text.includes(merchant));
    return { tx, msgId };
  };

  it('lists, reads, declines, matches by hand, corrects, confirms and deletes receipts', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const tea = await suggested('Tea House', '2026-11-11', 12.5);
    const page = await trpc.inbox.get.query({ statuses: ['suggested_match'], q: 'tea house' });
    expect(page.meta).toEqual({ cursor: null, hasNextPage: false });
    const [item] = page.data;
    expect(item).toMatchObject({
      displayName: 'Tea House',
      amount: 12.5,
      status: 'suggested_match',
      suggestion: { transactionId: tea.tx.id, status: 'pending' },
    });
    expect(await trpc.inbox.getById.query({ id: item.id })).toEqual(item);

    // The waiting run gets the decline as its signal and puts the receipt back.
    expect(await trpc.inbox.declineMatch.mutate({ id: item.id, transactionId: tea.tx.id })).toEqual({ outcome: 'signalled' });
    expect((await receiptRun(tea.msgId).result()).stage).toBe('declined');
    expect(await trpc.inbox.getById.query({ id: item.id })).toMatchObject({ status: 'pending', suggestion: null });
    expect(await trpcError(trpc.inbox.confirmMatch.mutate({ id: item.id, transactionId: tea.tx.id }))).toMatchObject({
      httpStatus: 409,
      description: 'No pending suggestion of this transaction for this item',
    });

    const matched = await trpc.inbox.matchTransaction.mutate({ id: item.id, transactionId: tea.tx.id });
    expect(matched).toMatchObject({ status: 'done', transactionId: tea.tx.id });
    const corrected = await trpc.inbox.update.mutate({ id: item.id, data: { displayName: 'Tea House Mitte', note: 'client visit' } });
    expect(corrected).toMatchObject({ displayName: 'Tea House Mitte', note: 'client visit', status: 'done' });

    const ink = await suggested('Ink Supplies', '2026-11-12', 33.3);
    const inkItem = (await trpc.inbox.get.query({ q: 'ink supplies' })).data[0];
    expect(await trpc.inbox.confirmMatch.mutate({ id: inkItem.id, transactionId: ink.tx.id })).toEqual({ outcome: 'signalled' });
    expect((await receiptRun(ink.msgId).result()).stage).toBe('confirmed');
    expect(await trpc.inbox.getById.query({ id: inkItem.id })).toMatchObject({ status: 'done', transactionId: ink.tx.id });
    expect(await stack.tdb.db('transaction_attachments').where({ transactionId: ink.tx.id, inboxItemId: inkItem.id })).toHaveLength(1);

    await trpc.inbox.delete.mutate({ id: inkItem.id });
    expect(await trpcError(trpc.inbox.getById.query({ id: inkItem.id }))).toMatchObject({
      httpStatus: 404,
      description: `Inbox item ${inkItem.id} not found`,
    });
    expect((await trpc.inbox.get.query({ q: 'ink supplies' })).data).toEqual([]);
    // Deleted is only hidden: the attachment stays with its transaction.
    expect(await stack.tdb.db('transaction_attachments').where({ transactionId: ink.tx.id })).toHaveLength(1);
  });

  it("answers 404 for another team's item, 400 for invalid input or a foreign transaction and 403 without the scope", async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const [item] = (await trpc.inbox.get.query({ q: 'tea house' })).data;
    const stranger = await createTeamAndOwner(stack.tdb.db, 'Stranger');
    const other = trpcAs(stack.api, stranger.sessionToken);
    const transactionId = item.transactionId ?? '';
    for (const call of [
      other.inbox.getById.query({ id: item.id }),
      other.inbox.update.mutate({ id: item.id, data: { note: 'not yours' } }),
      other.inbox.delete.mutate({ id: item.id }),
      other.inbox.confirmMatch.mutate({ id: item.id, transactionId }),
      other.inbox.declineMatch.mutate({ id: item.id, transactionId }),
    ])
      expect(await trpcError(call)).toMatchObject({ httpStatus: 404, error: 'Not Found' });
    expect((await other.inbox.get.query({})).data).toEqual([]);
    // The transaction is checked first, and it is not the stranger's.
    expect(await trpcError(other.inbox.matchTransaction.mutate({ id: item.id, transactionId }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'transactionId', message: 'no such transaction in your team' }],
    });
    expect((await trpc.inbox.getById.query({ id: item.id })).note).toBe('client visit');

    expect(await trpcError(trpc.inbox.update.mutate({ id: item.id, data: { amount: -5 } }))).toMatchObject({
      httpStatus: 400,
      details: [expect.objectContaining({ field: 'data.amount' })],
    });
    expect(await trpcError(trpc.inbox.get.query({ statuses: ['lost'] }))).toMatchObject({ httpStatus: 400 });

    const reader = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['inbox.read']);
    const readOnly = trpcAs(stack.api, reader);
    expect((await readOnly.inbox.getById.query({ id: item.id })).id).toBe(item.id);
    expect(await trpcError(readOnly.inbox.update.mutate({ id: item.id, data: { note: 'read only' } }))).toMatchObject({
      httpStatus: 403,
      error: 'Forbidden',
    });
  });
});
