import { emitEvent } from '../../shared/domain/webhook-endpoints/events';
import { readEvents } from '../support/event-feed';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

/**
 * The feed's promise under concurrency: a client that reads to the end and keeps its cursor misses
 * nothing and sees nothing twice, while many transactions commit in an order of their own.
 */
// Thousands of requests a minute from one credential: past the default rate limit.
const { ctx, send } = withTwoTeams({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });

// Each writer creates its own transactions, then changes all of them at once, round after round:
// every round is one request that commits one event per transaction, so 10,000 changes take some
// 600 requests, and writers' commits interleave both within and across teams.
const WRITERS = 8;
const OWN = 25;
const ROUNDS = 49;
const CHANGES = WRITERS * OWN * (1 + ROUNDS);

async function createTransaction(token: string, name: string): Promise<string> {
  const res = await send('POST', '/transactions', token, { date: '2026-04-01', name, amount: -1.25, currency: 'EUR' });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  return (await res.json()).data.id as string;
}

async function page(after: string | undefined, pageSize = 200) {
  const res = await send('GET', `/events?pageSize=${pageSize}${after ? `&after=${after}` : ''}`, ctx.acme.sessionToken);
  expect(res.status).toBe(200);
  return (await res.json()) as { data: UntypedJson[]; meta: { cursor: string; hasNextPage: boolean } };
}

const readAll = (after?: string, atLeast = 0) => readEvents(ctx.api, ctx.acme.sessionToken, { after, atLeast });

async function changeAll(token: string, ids: string[], note: string): Promise<void> {
  const res = await send('PATCH', '/transactions/bulk', token, { ids, set: { note } });
  if (res.status !== 200) throw new Error(`bulk update answered ${res.status}: ${await res.text()}`);
  expect((await res.json()).data.changed).toBe(ids.length);
}

/** What an event says happened (its kind and to which transaction), to compare what was done with what the feed tells. */
const changeOf = (e: UntypedJson) => `${e.type as string} ${e.data.id as string}`;

it(`a client polling from the start while ${CHANGES} changes are made by ${WRITERS} concurrent clients sees each once, in an order that never changes`, async () => {
  const made: string[] = [];
  const othersMade: string[] = [];
  let writing = true;
  const writers = Promise.all([
    ...Array.from({ length: WRITERS }, async (_, w) => {
      const ids: string[] = [];
      for (let i = 0; i < OWN; i++) {
        ids.push(await createTransaction(ctx.acme.sessionToken, `w${w}-${i}`));
        made.push(`transaction.created ${ids[i]}`);
      }
      for (let r = 0; r < ROUNDS; r++) {
        await changeAll(ctx.acme.sessionToken, ids, `w${w}-r${r}`);
        made.push(...ids.map((id) => `transaction.updated ${id}`));
      }
    }),
    // Another team writing at the same time: none of it may show.
    (async () => {
      for (let i = 0; i < 50; i++) othersMade.push(await createTransaction(ctx.other.sessionToken, `other-${i}`));
    })(),
  ]).finally(() => (writing = false));

  const polled: UntypedJson[] = [];
  let cursor: string | undefined;
  let pollsWhileWriting = 0;
  let nonEmptyWhileWriting = 0;
  const poller = (async () => {
    while (writing) {
      const p = await page(cursor);
      polled.push(...p.data);
      cursor = p.meta.cursor;
      pollsWhileWriting++;
      if (p.data.length) nonEmptyWhileWriting++;
    }
  })();
  await writers;
  await poller;
  // The last commits may still be held back behind a transaction of another test on the same server.
  const rest = await readAll(cursor, made.length - polled.length);
  polled.push(...rest.events);
  cursor = rest.cursor;

  expect(made).toHaveLength(CHANGES);
  // The poller really read while the writes went on, in many small steps.
  expect(pollsWhileWriting).toBeGreaterThan(20);
  expect(nonEmptyWhileWriting).toBeGreaterThan(10);

  // Exactly once: no event twice, no change twice, none missing, none of another team's.
  const eventIds = polled.map((e) => e.id as string);
  expect(new Set(eventIds).size).toBe(eventIds.length);
  const told = polled.map(changeOf);
  expect(told).toHaveLength(made.length);
  expect([...told].sort()).toEqual([...made].sort());
  const others = new Set(othersMade);
  expect(polled.filter((e) => others.has(e.data.id as string))).toEqual([]);
  // A transaction's creation comes before its changes, as it was made.
  const firstUpdate = new Map<string, number>();
  const createdAt = new Map<string, number>();
  polled.forEach((e, i) => {
    const id = e.data.id as string;
    if (e.type === 'transaction.created') createdAt.set(id, i);
    else if (!firstUpdate.has(id)) firstUpdate.set(id, i);
  });
  for (const [id, at] of firstUpdate) expect(createdAt.get(id)).toBeLessThan(at);

  // In an order that never changed under the poller: read again from the start, the feed is the
  // very sequence the poller put together page by page, so nothing was ever placed before a
  // position it had already read.
  const again = await readAll();
  expect(again.events.map((e) => e.id)).toEqual(eventIds);
  expect((await page(cursor)).data).toEqual([]);
}, 300_000);

it('holds back an event committed after an earlier-started transaction’s until that one ends, so a saved cursor never skips it', async () => {
  const { cursor: start } = await readAll();
  const open = await ctx.tdb.db.transaction();
  try {
    // This transaction writes its event first, and commits last.
    await emitEvent(open, ctx.acme.team.id, 'invoice.overdue', {
      invoiceId: 'c0ffee00-0000-4000-8000-000000000001',
      invoiceNumber: 'INV-7',
      status: 'overdue',
      dueDate: '2026-03-01',
    });
    const later = await createTransaction(ctx.acme.sessionToken, 'committed first');
    const whileOpen = await page(start);
    // A feed by insert order alone would serve `later` here and move the cursor past the open one's event.
    expect(whileOpen.data).toEqual([]);
    const saved = whileOpen.meta.cursor;
    await open.commit();
    const after = await readAll(saved, 2);
    expect(after.events.map((e) => [e.type, (e.data.id ?? e.data.invoiceId) as string])).toEqual([
      ['invoice.overdue', 'c0ffee00-0000-4000-8000-000000000001'],
      ['transaction.created', later],
    ]);
  } finally {
    if (!open.isCompleted()) await open.rollback();
  }
});

it('writes nothing to the feed for a change that rolls back', async () => {
  const { cursor } = await readAll();
  await ctx.tdb.db
    .transaction(async (trx) => {
      await emitEvent(trx, ctx.acme.team.id, 'invoice.paid', {
        invoiceId: 'c0ffee00-0000-4000-8000-000000000002',
        invoiceNumber: 'INV-8',
        status: 'paid',
        dueDate: null,
        paidAt: '2026-04-01T00:00:00.000Z',
      });
      throw new Error('roll back');
    })
    .catch(() => undefined);
  const marker = await createTransaction(ctx.acme.sessionToken, 'after the rollback');
  const { events } = await readAll(cursor, 1);
  expect(events.map((e) => e.data.id)).toEqual([marker]);
});
