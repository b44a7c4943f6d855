import { createEventSource } from 'eventsource-client';
import { encodeCursor } from '../../shared/domain/common/cursor';
import { sweepExpiredEvents } from '../../shared/domain/events/retention';
import { attemptWebhookDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import { statusAndBody } from '../support/api';
import { readEvents } from '../support/event-feed';
import { insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * The event feed (GET /events, tRPC events.get, GET /events/stream): what it holds, who sees it,
 * how it pages, resumes, waits and forgets. Its order under concurrent writers is proved in
 * test/e2e/events-commit-order.test.ts.
 */
const { ctx, send } = withTwoTeams({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', EVENTS_STREAM_HEARTBEAT: '300ms' } });

const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});

let day = 0;
/** A transaction made over REST, as a client would; returns its id. */
async function createTransaction(token = ctx.acme.sessionToken, name = 'Coffee'): Promise<string> {
  day++;
  const res = await send('POST', '/transactions', token, {
    date: `2026-03-${String((day % 28) + 1).padStart(2, '0')}`,
    name,
    amount: -4.5 - day,
    currency: 'EUR',
  });
  expect(res.status).toBe(201);
  return (await res.json()).data.id as string;
}

const feed = async (query: string, token = ctx.acme.sessionToken) => statusAndBody(await send('GET', `/events${query}`, token));

/** Every event after `after`, in small pages, waiting for at least `atLeast` (see readEvents), and the cursor at the end. */
const readToEnd = (after?: string, token = ctx.acme.sessionToken, atLeast = 0) =>
  readEvents(ctx.api, token, { after, atLeast, pageSize: 7 });

describe('GET /events', () => {
  it('holds every change in order, pages with a cursor that is never null, and gives the same over tRPC', async () => {
    const start = await readToEnd();
    const created = [await createTransaction(), await createTransaction(), await createTransaction()];
    const patched = await send('PATCH', `/transactions/${created[1]}`, ctx.acme.sessionToken, { name: 'Coffee beans' });
    expect(patched.status).toBe(200);
    const deleted = await send('DELETE', `/transactions/${created[2]}`, ctx.acme.sessionToken);
    expect(deleted.status).toBe(204);

    const after = await readToEnd(start.cursor, ctx.acme.sessionToken, 5);
    expect(after.events.map((e) => [e.type, e.data.id])).toEqual([
      ['transaction.created', created[0]],
      ['transaction.created', created[1]],
      ['transaction.created', created[2]],
      ['transaction.updated', created[1]],
      ['transaction.deleted', created[2]],
    ]);
    expect(after.events[3]).toMatchObject({ data: { name: 'Coffee beans', currency: 'EUR', manual: true } });
    expect(new Set(after.events.map((e) => e.id)).size).toBe(5);

    // At the end: no events, and the same cursor to come back with.
    const atEnd = await feed(`?after=${after.cursor}`);
    expect(atEnd.body).toEqual({ data: [], meta: { cursor: after.cursor, hasNextPage: false } });

    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const viaTrpc = await trpc.events.get.query({ after: start.cursor, pageSize: 500 });
    expect(viaTrpc.data).toEqual(after.events);
    expect(viaTrpc.meta).toEqual({ cursor: after.cursor, hasNextPage: false });
  });

  it('shows a team only its own events, and another team’s cursor is no position in its feed', async () => {
    const otherStart = await readToEnd(undefined, ctx.other.sessionToken);
    const acmeStart = await readToEnd();
    const acmeIds = [await createTransaction(ctx.acme.sessionToken, 'ACME-PRIVATE'), await createTransaction()];
    const otherId = await createTransaction(ctx.other.sessionToken, 'Other’s own');

    const theirs = await readToEnd(otherStart.cursor, ctx.other.sessionToken, 1);
    expect(theirs.events.map((e) => e.data.id)).toEqual([otherId]);
    const everythingTheySee = JSON.stringify((await readToEnd(undefined, ctx.other.sessionToken)).events);
    for (const id of acmeIds) expect(everythingTheySee).not.toContain(id);
    expect(everythingTheySee).not.toContain('ACME-PRIVATE');

    const ours = await readToEnd(acmeStart.cursor, ctx.acme.sessionToken, 2);
    expect(ours.events.map((e) => e.data.id)).toEqual(acmeIds);
    // Acme's cursor means nothing to Other: refused, and nothing of Acme's comes back.
    const crossed = await feed(`?after=${ours.cursor}`, ctx.other.sessionToken);
    expect(crossed.status).toBe(409);
    expect(JSON.stringify(crossed.body)).not.toContain(acmeIds[1]);
  });

  it('refuses a cursor it never issued with a 400 on both doors', async () => {
    for (const bad of [
      'nope',
      encodeCursor(['1', 'x']),
      encodeCursor(['-1', '2']),
      encodeCursor(['99999999999999999999', '1']),
      encodeCursor(['1']),
    ]) {
      const res = await feed(`?after=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', details: [{ field: 'after', message: 'not a cursor this API issued' }] });
    }
    expect((await feed('?pageSize=0')).status).toBe(400);
    expect((await feed('?wait=31')).status).toBe(400);
    const err = await trpcError(trpcAs(ctx.api, ctx.acme.sessionToken).events.get.query({ after: 'nope' }));
    expect(err).toMatchObject({ httpStatus: 400, details: [{ field: 'after' }] });
  });

  it('needs events.read (apis.read includes it); transactions.read is not enough', async () => {
    const owner = { teamId: ctx.acme.team.id, userId: ctx.acme.user.id };
    expect((await feed('', await insertApiKey(ctx.tdb.db, owner, ['transactions.read']))).status).toBe(403);
    expect((await feed('', await insertApiKey(ctx.tdb.db, owner, ['events.read']))).status).toBe(200);
    expect((await feed('', await insertApiKey(ctx.tdb.db, owner, ['apis.read']))).status).toBe(200);
    const noScope = await insertApiKey(ctx.tdb.db, owner, ['transactions.read']);
    const stream = await ctx.api.fetch('/events/stream', { token: noScope, headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(403);
  });

  it('long-polls with wait: answers as soon as an event commits', async () => {
    const { cursor } = await readToEnd();
    const started = Date.now();
    const polled = feed(`?after=${cursor}&wait=20`);
    // Made while the poll waits.
    await new Promise((r) => setTimeout(r, 300));
    const id = await createTransaction();
    const res = await polled;
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: UntypedJson) => e.data.id)).toEqual([id]);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Nothing comes: an empty page at the deadline, with the cursor to go on from.
    const quiet = await feed(`?after=${res.body.meta.cursor}&wait=1`);
    expect(quiet.body).toEqual({ data: [], meta: { cursor: res.body.meta.cursor, hasNextPage: false } });
  });
});

describe('the feed and webhooks out', () => {
  it('gives each event the id and the very payload its webhook deliveries carry, and logs events nobody subscribes to', async () => {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const registered = await send('POST', '/webhook-endpoints', ctx.acme.sessionToken, {
      url: receiver.url,
      eventTypes: ['transaction.created', 'transaction.updated'],
    });
    expect(registered.status).toBe(201);
    const endpointId = (await registered.json()).data.id as string;
    const { cursor } = await readToEnd();
    const id = await createTransaction();
    await send('PATCH', `/transactions/${id}`, ctx.acme.sessionToken, { name: 'Espresso' });
    await send('DELETE', `/transactions/${id}`, ctx.acme.sessionToken);
    const logged = (await readToEnd(cursor, ctx.acme.sessionToken, 3)).events;
    expect(logged.map((e) => e.type)).toEqual(['transaction.created', 'transaction.updated', 'transaction.deleted']);

    // What the endpoint receives for each subscribed event, through the sender itself.
    const deliveries = await ctx.tdb.db('webhook_deliveries').where({ endpointId }).orderBy('createdAt').select('id', 'eventId');
    expect(deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([logged[0].id, logged[1].id]);
    for (const d of deliveries) await attemptWebhookDelivery(ctx.api.deps, d.id as string);
    const received = receiver.received.map((r, i) => ({ id: deliveries[i].eventId as string, ...JSON.parse(r.body) }));
    expect(received).toEqual(logged.slice(0, 2));
  });
});

describe('retention', () => {
  it('sweeps events past EVENTS_RETENTION but keeps a team’s newest; a cursor whose event is gone is a 409', async () => {
    const { cursor: before } = await readToEnd();
    const ids = [await createTransaction(), await createTransaction(), await createTransaction()];
    const logged = (await readToEnd(before, ctx.acme.sessionToken, 3)).events;
    expect(logged.map((e) => e.data.id)).toEqual(ids);
    const firstCursor = (await feed(`?after=${before}&pageSize=1`)).body.meta.cursor as string;
    // Everything of Acme's is 40 days old now; Other's events are recent.
    await ctx.tdb
      .db('events')
      .where({ teamId: ctx.acme.team.id })
      .update({ createdAt: ctx.tdb.db.raw(`now() - interval '40 days'`) });
    const otherBefore = await ctx.tdb.db('events').where({ teamId: ctx.other.team.id }).count<{ n: number }[]>({ n: '*' });

    expect(await sweepExpiredEvents(ctx.tdb.db, 30 * 86_400_000)).toBeGreaterThanOrEqual(2);
    const left = await ctx.tdb.db('events').where({ teamId: ctx.acme.team.id }).pluck('id');
    expect(left).toEqual([logged[2].id]);
    expect(await ctx.tdb.db('events').where({ teamId: ctx.other.team.id }).count<{ n: number }[]>({ n: '*' })).toEqual(otherBefore);

    const expired = await feed(`?after=${firstCursor}`);
    expect(expired.status).toBe(409);
    expect(expired.body.description).toMatch(/older than the feed keeps/);
    // The up-to-date client's cursor (the newest event) still works, and from the start the feed is what is left.
    const upToDate = await readToEnd();
    expect(upToDate.events.map((e) => e.id)).toEqual([logged[2].id]);
    expect((await feed(`?after=${upToDate.cursor}`)).status).toBe(200);
    // Nothing more to sweep: the newest stays however old.
    expect(await sweepExpiredEvents(ctx.tdb.db, 30 * 86_400_000)).toBe(0);
  });
});

describe('GET /events/stream', () => {
  /** Reads the stream as a browser's EventSource would, until `until` says stop; resumes from `lastEventId` when given. */
  async function streamUntil(until: (events: { id?: string; event: string; data: UntypedJson }[]) => boolean, lastEventId?: string) {
    const received: { id?: string; event: string; data: UntypedJson }[] = [];
    const source = createEventSource({
      url: `${ctx.api.url}/events/stream`,
      headers: { authorization: `Bearer ${ctx.acme.sessionToken}` },
      initialLastEventId: lastEventId,
    });
    const timer = setTimeout(() => source.close(), 20_000);
    try {
      for await (const m of source) {
        received.push({ id: m.id, event: m.event ?? 'message', data: JSON.parse(m.data) });
        if (until(received)) break;
      }
    } finally {
      clearTimeout(timer);
      source.close();
    }
    return received;
  }
  type Frame = { id?: string; event: string; data: UntypedJson };
  const changes = (frames: Frame[]) => frames.filter((f) => f.event !== 'heartbeat');

  it('sends what is there, then new events as they commit, and resumes after Last-Event-ID without repeats', async () => {
    const { cursor } = await readToEnd();
    const first = await createTransaction();
    let made: Promise<string> | undefined;
    const live = await streamUntil((frames) => {
      // Once what was there has come, a change made now must arrive live.
      if (!made && changes(frames).length === 1) made = createTransaction();
      return changes(frames).length === 2;
    }, cursor);
    const second = await made!;
    const got = changes(live);
    expect(got.map((f) => [f.event, f.data.data.id])).toEqual([
      ['transaction.created', first],
      ['transaction.created', second],
    ]);
    // Each frame's id is the feed's cursor after it: the same events, read with it over GET /events.
    const fromFeed = (await readToEnd(cursor, ctx.acme.sessionToken, 2)).events;
    expect(got.map((f) => f.data)).toEqual(fromFeed);
    expect((await feed(`?after=${got[0].id}`)).body.data).toEqual([fromFeed[1]]);
    expect((await feed(`?after=${got[1].id}`)).body.data).toEqual([]);

    // Gone for a while: two more changes, then back with Last-Event-ID.
    const missed = [await createTransaction(), await createTransaction()];
    const resumed = await streamUntil((frames) => changes(frames).length === 2, got.at(-1)!.id);
    expect(changes(resumed).map((f) => f.data.data.id)).toEqual(missed);
  });

  it('answers an idle stream with a heartbeat carrying the cursor, and refuses a bad Last-Event-ID before streaming', async () => {
    const { cursor } = await readToEnd();
    const idle = await streamUntil((frames) => frames.length >= 2, cursor);
    expect(idle.map((f) => f.event)).toEqual(['heartbeat', 'heartbeat']);
    expect(idle[0]).toMatchObject({ id: cursor, data: { cursor } });

    const bad = await ctx.api.fetch('/events/stream', { token: ctx.acme.sessionToken, headers: { 'last-event-id': 'garbage' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ details: [{ field: 'after' }] });
  });
});
