import { startTestApi, type TestApi } from '../support/api';
import { insertApiKey, insertDocument } from '../support/fixtures';
import { chatEvents, streamedText } from '../support/sse';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const now = new Date();
const [Y, M] = [now.getUTCFullYear(), now.getUTCMonth()];
const lastMonth = { from: day(Y, M - 1, 1), to: day(Y, M, 0) };
// Consulting and hosting income fall in the month before last, so the figures for last month stay as they are.
const before = { from: day(Y, M - 2, 1), to: day(Y, M - 1, 0) };
const beforeName = new Date(Date.UTC(Y, M - 2, 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });

const monthBeforeLast = [
  { day: 10, name: 'Consulting client', amount: 1200, categorySlug: 'consulting' },
  { day: 20, name: 'Consulting client', amount: 800.5, categorySlug: 'consulting' },
  { day: 21, name: 'Conference fee', amount: -150.25, categorySlug: 'consulting' },
  { day: 22, name: 'Hosting client', amount: 300, categorySlug: 'hosting' },
  { day: 15, name: 'Figma', amount: -100, categorySlug: 'software' },
];
/** Income, expenses and profit of one category in the month before last, as the report should sum them. */
const categoryFigures = (slug: string) => {
  const amounts = monthBeforeLast.filter((t) => t.categorySlug === slug).map((t) => t.amount);
  const income = amounts.filter((a) => a > 0).reduce((s, a) => s + a, 0);
  const expenses = -amounts.filter((a) => a < 0).reduce((s, a) => s + a, 0);
  return { income, expenses, profit: income - expenses };
};
const eur = (n: number) => `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} EUR`;

beforeAll(async () => {
  const { db } = ctx.tdb;
  const acme = ctx.acme.team.id;
  await db('teams').where({ id: acme }).update({ baseCurrency: 'EUR' });
  await db('transaction_categories').insert([
    { teamId: acme, name: 'Software', slug: 'software' },
    { teamId: acme, name: 'Travel', slug: 'travel' },
    { teamId: acme, name: 'Consulting', slug: 'consulting' },
    { teamId: acme, name: 'Hosting', slug: 'hosting' },
    { teamId: ctx.other.team.id, name: 'Software', slug: 'software' },
    { teamId: ctx.other.team.id, name: 'Consulting', slug: 'consulting' },
  ]);
  const tx = (teamId: string, date: string, name: string, amount: number, categorySlug: string | null) => ({
    teamId,
    date,
    name,
    amount,
    currency: 'EUR',
    categorySlug,
  });
  await db('transactions').insert([
    tx(acme, day(Y, M - 1, 5), 'Figma', -100, 'software'),
    tx(acme, day(Y, M - 1, 20), 'GitHub', -23.45, 'software'),
    tx(acme, day(Y, M - 1, 12), 'Rail', -50, 'travel'),
    tx(acme, day(Y, M - 1, 25), 'Client payment', 4000, null),
    tx(acme, day(Y, M, 1), 'Figma', -999, 'software'), // this month
    tx(ctx.other.team.id, day(Y, M - 1, 5), 'Figma', -777, 'software'), // another team
    ...monthBeforeLast.map((t) => tx(acme, day(Y, M - 2, t.day), t.name, t.amount, t.categorySlug)),
    tx(ctx.other.team.id, day(Y, M - 2, 10), 'Big client', 5000, 'consulting'),
  ]);
  await db('invoices').insert([
    // 2,000 invoiced, 300 paid and 200 credited: 1,500 is what chat reports as still due.
    {
      teamId: acme,
      invoiceNumber: 'INV-1',
      status: 'overdue',
      currency: 'EUR',
      amount: 2000,
      amountPaid: 300,
      amountCredited: 200,
      dueDate: day(Y, M - 1, 1),
    },
    { teamId: acme, invoiceNumber: 'INV-2', status: 'unpaid', currency: 'EUR', amount: 250, dueDate: day(Y, M + 1, 1) },
    { teamId: acme, invoiceNumber: 'INV-3', status: 'paid', currency: 'EUR', amount: 999 },
  ]);
  const lease = { content: 'Office lease agreement, Main Street 5', kind: 'contract' };
  await insertDocument(db, acme, { name: 'lease.pdf', ...lease, createdAt: new Date(Date.UTC(Y, M - 1, 3)) });
  await insertDocument(db, acme, { name: 'figma.pdf', content: 'Figma subscription invoice', kind: 'invoice' });
  await insertDocument(db, ctx.other.team.id, { name: 'their-lease.pdf', ...lease });
});

describe('POST /chat offline (the intent parser, no model)', () => {
  it('answers "how much did we spend on software last month?" with the figure from the spending report, streamed and cited', async () => {
    const events = await chatEvents(ctx.api, ctx.acme.sessionToken, { message: 'How much did we spend on software last month?' });
    expect(events.map((e) => e.event).filter((e) => e !== 'token')).toEqual(['conversation', 'tool_call', 'tool_result', 'message']);
    const call = events.find((e) => e.event === 'tool_call')!.data;
    expect(call).toEqual({ id: 'call_1', ref: 1, name: 'spending', arguments: { ...lastMonth, category: 'software' } });
    const result = events.find((e) => e.event === 'tool_result')!.data;
    expect(result.result).toMatchObject({
      currency: 'EUR',
      from: lastMonth.from,
      to: lastMonth.to,
      matched: [{ slug: 'software', amount: 123.45 }],
    });

    const answer = events.at(-1)!.data;
    expect(answer.content).toBe(`You spent 123.45 EUR on Software from ${lastMonth.from} to ${lastMonth.to} [1].`);
    expect(streamedText(events)).toBe(answer.content);
    expect(answer.citations).toEqual([{ ref: 1, toolCallId: 'call_1', tool: 'spending' }]);
    expect(answer.toolCalls).toEqual([{ ...call, result: result.result, error: null }]);

    // Both sides are stored, in the caller's own conversation.
    const conversationId = events[0].data.conversationId;
    const stored = await send('GET', `/chat/conversations/${conversationId}`, ctx.acme.sessionToken);
    expect(stored.status).toBe(200);
    const body = await stored.json();
    expect(body.data.title).toBe('How much did we spend on software last month?');
    expect(body.data.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'How much did we spend on software last month?'],
      ['assistant', answer.content],
    ]);
    expect((await send('GET', `/chat/conversations/${conversationId}`, ctx.other.sessionToken)).status).toBe(404);
  });

  it('gives a token without report or transaction scopes no figures: those tools are not even offered', async () => {
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, [
      'chat.write',
      'chat.read',
      'invoices.read',
    ]);
    const events = await chatEvents(ctx.api, key, { message: 'How much did we spend on software last month?' });
    const answer = events.at(-1)!.data;
    expect(events.some((e) => e.event === 'tool_call')).toBe(false);
    expect(answer.content).toBe('I cannot answer that with this access: spending by category needs the reports.read scope.');
    expect(answer.content).not.toMatch(/\d/);
    const paid = await chatEvents(ctx.api, key, { message: 'How much did we pay Figma?' });
    expect(paid.at(-1)!.data.content).toBe(
      'I cannot answer that with this access: payments to a merchant needs the transactions.read scope.',
    );
    const documents = await chatEvents(ctx.api, key, { message: 'Find documents about the office lease' });
    expect(documents.at(-1)!.data.content).toBe('I cannot answer that with this access: search documents needs the documents.read scope.');

    // What it may see, it gets.
    const invoices = await chatEvents(ctx.api, key, { message: 'Which invoices are unpaid?' });
    expect(invoices.at(-1)!.data.content).toBe(
      `2 invoices are unpaid, 1 of them overdue, 1,750.00 EUR in total [1]: INV-1 1,500.00 EUR due ${day(Y, M - 1, 1)}, overdue; INV-2 250.00 EUR due ${day(Y, M + 1, 1)}.`,
    );

    const reader = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['reports.read']);
    expect((await send('POST', '/chat', reader, { message: 'hi' })).status).toBe(403);
  });

  it.each([
    ['What was our revenue last month?', `Revenue was 4,000.00 EUR from ${lastMonth.from} to ${lastMonth.to} [1].`],
    [
      'What was our profit last month?',
      `Profit was 3,826.55 EUR from ${lastMonth.from} to ${lastMonth.to} [1]: income 4,000.00 EUR, expenses 173.45 EUR.`,
    ],
    ['How much did we pay Figma last month?', `You paid Figma 100.00 EUR in 1 payment from ${lastMonth.from} to ${lastMonth.to} [1].`],
    ['How much have we paid Figma in total?', 'You paid Figma 1,199.00 EUR in 3 payments'],
    [
      'Which invoices are overdue?',
      `1 invoice is overdue, 1,500.00 EUR in total [1]: INV-1 1,500.00 EUR due ${day(Y, M - 1, 1)}, overdue.`,
    ],
    ['Do we have receipts waiting?', 'No receipts are waiting in the inbox [1].'],
    // Another team's lease and this team's other documents are not found.
    [
      'Find documents about the office lease',
      `Found 1 document about office lease [1]: lease.pdf (contract), uploaded ${day(Y, M - 1, 3)}.`,
    ],
  ])('answers %j', async (question, expected) => {
    const events = await chatEvents(ctx.api, ctx.acme.sessionToken, { message: question });
    expect(events.at(-1)!.data.content).toContain(expected);
  });

  it('answers revenue and profit of one category, summed from that category alone', async () => {
    const ask = async (message: string) => (await chatEvents(ctx.api, ctx.acme.sessionToken, { message })).at(-1)!.data.content;
    const consulting = categoryFigures('consulting');
    const software = categoryFigures('software');
    expect(await ask(`What was our revenue from consulting in ${beforeName}?`)).toBe(
      `Revenue from Consulting was ${eur(consulting.income)} from ${before.from} to ${before.to} [1].`,
    );
    expect(await ask(`What was our profit on consulting in ${beforeName}?`)).toBe(
      `Profit on Consulting was ${eur(consulting.profit)} from ${before.from} to ${before.to} [1]: income ${eur(consulting.income)}, expenses ${eur(consulting.expenses)}.`,
    );
    expect(await ask(`And the profit on software in ${beforeName}?`)).toBe(
      `Loss on Software was ${eur(-software.profit)} from ${before.from} to ${before.to} [1]: income ${eur(0)}, expenses ${eur(software.expenses)}.`,
    );
    expect(await ask('What was our revenue from gardening last month?')).toBe('The team has no category like gardening [1].');
  });

  it('says plainly when it does not understand, with questions it can answer', async () => {
    const events = await chatEvents(ctx.api, ctx.acme.sessionToken, { message: 'Write me a poem about the sea' });
    expect(events.at(-1)!.data).toMatchObject({ toolCalls: [], citations: [] });
    expect(events.at(-1)!.data.content).toMatch(/^Sorry, I did not understand that question\. I can answer questions such as "/);
  });

  it("continues only the caller's own conversations, and validates the message", async () => {
    const first = await chatEvents(ctx.api, ctx.acme.sessionToken, { message: 'What is our runway?' });
    const conversationId = first[0].data.conversationId;
    const next = await chatEvents(ctx.api, ctx.acme.sessionToken, { message: 'And revenue last month?', conversationId });
    expect(next[0].data.conversationId).toBe(conversationId);
    expect(first.at(-1)!.data.content).toMatch(/\[1\]\.$/);

    const foreign = await send('POST', '/chat', ctx.other.sessionToken, { message: 'hi', conversationId });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: 'Not Found', description: `Conversation ${conversationId} not found` });
    const empty = await send('POST', '/chat', ctx.acme.sessionToken, { message: '  ' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).details[0].field).toBe('message');
    const count = await ctx.tdb.db('chat_messages').where({ chatId: conversationId }).count<{ n: number }[]>('* as n');
    expect(count[0].n).toBe(4);
  });

  it('works over the typed tRPC client: send, list, get, delete', async () => {
    const trpc = trpcAs(ctx.api, ctx.other.sessionToken);
    const sent = await trpc.chat.send.mutate({ message: 'How much did we spend on software last month?', timezone: 'UTC' });
    expect(sent.answer.content).toBe(`You spent 777.00 EUR on Software from ${lastMonth.from} to ${lastMonth.to} [1].`);
    const list = await trpc.chatConversations.get.query({ pageSize: 10 });
    expect(list.data.map((c) => c.id)).toEqual([sent.conversationId]);
    expect((await trpc.chatConversations.getById.query({ id: sent.conversationId })).messages).toHaveLength(2);
    expect(
      await trpcError(trpcAs(ctx.api, ctx.acme.sessionToken).chatConversations.delete.mutate({ id: sent.conversationId })),
    ).toMatchObject({
      httpStatus: 404,
    });
    await trpc.chatConversations.delete.mutate({ id: sent.conversationId });
    expect(await trpcError(trpc.chatConversations.getById.query({ id: sent.conversationId }))).toMatchObject({ httpStatus: 404 });
    expect(await ctx.tdb.db('chat_messages').where({ chatId: sent.conversationId })).toEqual([]);
  });

  it('limits messages per user across every API process (429 with Retry-After), and lists conversations newest first', async () => {
    const env = { CHAT_RATE_LIMIT: '2', CHAT_RATE_LIMIT_WINDOW: '1m' };
    // Two gateways over one database, as two API processes: the budget is one, whichever takes the message.
    const limited = await startTestApi(ctx.tdb.db, { env });
    const twin = await startTestApi(ctx.tdb.db, { env });
    try {
      const ask = (api: TestApi) =>
        api.fetch('/chat', {
          method: 'POST',
          token: ctx.other.sessionToken,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'What is our runway?' }),
        });
      for (const api of [limited, twin]) {
        const res = await ask(api);
        expect(res.status).toBe(200);
        await res.text();
      }
      const third = await ask(limited);
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await third.json()).description).toMatch(/^Chat limit of 2 messages reached; retry in \d+ s$/);
      expect(await trpcError(trpcAs(twin, ctx.other.sessionToken).chat.send.mutate({ message: 'hi' }))).toMatchObject({
        httpStatus: 429,
      });
      // Another user has their own budget.
      const another = await twin.fetch('/chat', {
        method: 'POST',
        token: ctx.acme.sessionToken,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'What is our runway?' }),
      });
      expect(another.status).toBe(200);
      await another.text();
    } finally {
      await limited.stop();
      await twin.stop();
    }
    const page = await (await send('GET', '/chat/conversations?pageSize=2', ctx.other.sessionToken)).json();
    expect(page.data).toHaveLength(2);
    expect(page.meta.hasNextPage).toBe(false);
    expect(page.data[0].createdAt >= page.data[1].createdAt).toBe(true);
  });

  // Last in the file: its rows would move the all-time figures the questions above expect.
  it('sums every payment to a merchant, per currency, however many there are', async () => {
    const acme = ctx.acme.team.id;
    const old = (i: number) => day(Y - 3, 0, 1 + (i % 300));
    await ctx.tdb.db.batchInsert(
      'transactions',
      [
        ...Array.from({ length: 2400 }, (_, i) => ({ teamId: acme, date: old(i), name: 'Hetzner Online', amount: -0.1, currency: 'EUR' })),
        ...Array.from({ length: 150 }, (_, i) => ({ teamId: acme, date: old(i), name: 'Hetzner Online', amount: -2.5, currency: 'USD' })),
        { teamId: acme, date: old(0), name: 'Hetzner Online', amount: 40, currency: 'EUR' }, // a refund is not a payment
        { teamId: ctx.other.team.id, date: old(0), name: 'Hetzner Online', amount: -99, currency: 'EUR' },
      ],
      500,
    );
    const events = await chatEvents(ctx.api, ctx.acme.sessionToken, { message: 'How much have we paid Hetzner in total?' });
    expect(events.at(-1)!.data.content).toBe(
      `You paid Hetzner 375.00 USD in 150 payments and 240.00 EUR in 2400 payments from ${old(0)} to ${old(299)} [1].`,
    );
  });
});
