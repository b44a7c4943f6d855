import { notify } from '../../shared/domain/notifications/service';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

const { ctx, send } = withTwoTeams();

type Member = Awaited<ReturnType<typeof createTeamAndOwner>>;
let bob: Member; // a second member of Acme
const asBob = (method: string, path: string, body?: unknown) =>
  send(method, path, bob.sessionToken, body, { 'x-team-id': ctx.acme.team.id });

const synced = (count: number) => ({ connectionId: '00000000-0000-4000-8000-000000000001', count, manualSync: false });
const ids = (body: UntypedJson) => (body.data as { id: string }[]).map((n) => n.id);

beforeAll(async () => {
  bob = await createTeamAndOwner(ctx.tdb.db, 'Bob’s own');
  await ctx.tdb.db('team_members').insert({ teamId: ctx.acme.team.id, userId: bob.user.id, role: 'member' });
});
beforeEach(async () => {
  await ctx.tdb.db('notifications').delete();
  await ctx.tdb.db('notification_settings').delete();
});

describe('notifications', () => {
  it("lists the team's and the caller's own, newest first, across pages with inserts in between", async () => {
    const db = ctx.tdb.db;
    const teamWide: string[] = [];
    for (let i = 1; i <= 4; i++)
      teamWide.push(await notify(db, { teamId: ctx.acme.team.id, type: 'transactions_created', metadata: synced(i) }));
    const olives = await notify(db, {
      teamId: ctx.acme.team.id,
      userId: ctx.acme.user.id,
      type: 'inbox_needs_review',
      metadata: { inboxItemId: teamWide[0], transactionId: teamWide[1] },
    });
    const bobs = await notify(db, {
      teamId: ctx.acme.team.id,
      userId: bob.user.id,
      type: 'inbox_needs_review',
      metadata: { inboxItemId: teamWide[0], transactionId: teamWide[1] },
    });
    await notify(db, { teamId: ctx.other.team.id, type: 'transactions_created', metadata: synced(9) });

    const first = await (await send('GET', '/notifications?pageSize=2', ctx.acme.sessionToken)).json();
    expect(ids(first)).toEqual([olives, teamWide[3]]);
    expect(first.data[0]).toMatchObject({
      type: 'inbox_needs_review',
      audience: 'user',
      status: 'unread',
      title: 'A receipt needs your review',
    });
    expect(first.data[1]).toMatchObject({ audience: 'team', title: '4 new transactions from the bank', metadata: synced(4) });
    // A notification arriving between pages is not on the older pages, and nothing is skipped or repeated.
    const late = await notify(db, { teamId: ctx.acme.team.id, type: 'transactions_created', metadata: synced(1) });
    const rest: string[] = [];
    for (let cursor = first.meta.cursor as string | null; cursor;) {
      const next = await (await send('GET', `/notifications?pageSize=2&cursor=${cursor}`, ctx.acme.sessionToken)).json();
      rest.push(...ids(next));
      cursor = next.meta.cursor as string | null;
    }
    expect(rest).toEqual([teamWide[2], teamWide[1], teamWide[0]]);
    expect(rest).not.toContain(late);
    expect(rest).not.toContain(bobs);

    const bobsList = await (await asBob('GET', '/notifications')).json();
    expect(ids(bobsList)).toEqual([late, bobs, ...teamWide.slice().reverse()]);
    const othersList = await (await send('GET', '/notifications', ctx.other.sessionToken)).json();
    expect(othersList.data).toHaveLength(1);

    const byType = await (await send('GET', '/notifications?type=inbox_needs_review', ctx.acme.sessionToken)).json();
    expect(ids(byType)).toEqual([olives]);
    await notify(db, { teamId: ctx.acme.team.id, type: 'transactions_created', priority: 7, metadata: synced(2) });
    const urgent = await (await send('GET', '/notifications?maxPriority=3', ctx.acme.sessionToken)).json();
    expect(urgent.data).toHaveLength(6);
  });

  it("keeps each member's status: one reads, the other still has it unread; several, all, and archived", async () => {
    const db = ctx.tdb.db;
    const made: string[] = [];
    for (let i = 1; i <= 5; i++)
      made.push(await notify(db, { teamId: ctx.acme.team.id, type: 'transactions_created', metadata: synced(i) }));
    const unread = async (token?: string) =>
      (await (token ? send('GET', '/notifications/unread-count', token) : asBob('GET', '/notifications/unread-count'))).json();
    expect((await unread(ctx.acme.sessionToken)).data).toEqual({ unread: 5 });

    const one = await send('PATCH', `/notifications/${made[0]}`, ctx.acme.sessionToken, { status: 'read' });
    expect(one.status).toBe(200);
    expect((await one.json()).data).toMatchObject({ id: made[0], status: 'read' });
    expect((await unread(ctx.acme.sessionToken)).data).toEqual({ unread: 4 });
    expect((await unread()).data).toEqual({ unread: 5 }); // Bob has not read it

    const several = await send('POST', '/notifications/status', ctx.acme.sessionToken, {
      status: 'read',
      ids: [made[0], made[1], made[2]],
    });
    expect((await several.json()).data).toEqual({ updated: 2 }); // the first was read already
    const archived = await send('POST', '/notifications/status', ctx.acme.sessionToken, { status: 'archived', ids: [made[4]] });
    expect((await archived.json()).data).toEqual({ updated: 1 });
    const listed = await (await send('GET', '/notifications', ctx.acme.sessionToken)).json();
    expect(ids(listed)).toEqual([made[3], made[2], made[1], made[0]]); // archived ones are left out by default
    const onlyArchived = await (await send('GET', '/notifications?status=archived', ctx.acme.sessionToken)).json();
    expect(ids(onlyArchived)).toEqual([made[4]]);

    const everything = await asBob('POST', '/notifications/status', { status: 'read', all: true });
    expect((await everything.json()).data).toEqual({ updated: 5 });
    expect((await unread()).data).toEqual({ unread: 0 });
    expect((await unread(ctx.acme.sessionToken)).data).toEqual({ unread: 1 });
    const back = await send('PATCH', `/notifications/${made[0]}`, ctx.acme.sessionToken, { status: 'unread' });
    expect((await back.json()).data.status).toBe('unread');
    expect((await unread(ctx.acme.sessionToken)).data).toEqual({ unread: 2 });
  });

  it("refuses another team's ids, bad input and missing scopes, and changes nothing", async () => {
    const db = ctx.tdb.db;
    const others = await notify(db, { teamId: ctx.other.team.id, type: 'transactions_created', metadata: synced(1) });
    const bobs = await notify(db, { teamId: ctx.acme.team.id, userId: bob.user.id, type: 'transactions_created', metadata: synced(1) });
    for (const id of [others, bobs]) {
      expect((await send('GET', `/notifications/${id}`, ctx.acme.sessionToken)).status).toBe(404);
      expect((await send('PATCH', `/notifications/${id}`, ctx.acme.sessionToken, { status: 'read' })).status).toBe(404);
    }
    const passedOver = await send('POST', '/notifications/status', ctx.acme.sessionToken, { status: 'read', ids: [others, bobs] });
    expect((await passedOver.json()).data).toEqual({ updated: 0 });
    expect(await db('notification_states')).toEqual([]);

    const bad = await send('PATCH', `/notifications/${bobs}`, ctx.acme.sessionToken, { status: 'gone' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details[0].field).toBe('status');
    const both = await send('POST', '/notifications/status', ctx.acme.sessionToken, { status: 'read', ids: [bobs], all: true });
    expect(both.status).toBe(400);
    expect(
      (await send('POST', '/notifications/status', ctx.acme.sessionToken, { status: 'read', ids: Array(501).fill(bobs) })).status,
    ).toBe(400);
    expect((await send('GET', '/notifications?status=new', ctx.acme.sessionToken)).status).toBe(400);
    expect((await send('GET', '/notifications?cursor=nope', ctx.acme.sessionToken)).status).toBe(400);
    expect((await send('GET', '/notifications/not-a-uuid', ctx.acme.sessionToken)).status).toBe(400);
    expect((await send('PUT', '/notifications/settings/nothing_like_it', ctx.acme.sessionToken, { email: true })).status).toBe(400);
    expect((await send('PUT', '/notifications/settings/invoice_paid', ctx.acme.sessionToken, {})).status).toBe(400);

    const readOnly = await insertApiKey(db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['notifications.read']);
    const tagsOnly = await insertApiKey(db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['tags.read']);
    expect((await send('GET', '/notifications', readOnly)).status).toBe(200);
    expect((await send('GET', '/notifications', tagsOnly)).status).toBe(403);
    expect((await send('POST', '/notifications/status', readOnly, { status: 'read', all: true })).status).toBe(403);
    expect((await send('PUT', '/notifications/settings/invoice_paid', readOnly, { email: true })).status).toBe(403);
    expect(await db('notification_states')).toEqual([]);
    expect(await db('notification_settings')).toEqual([]);
  });

  it('keeps settings per member and type: a type turned off in the app leaves the list and the count; email queues a delivery', async () => {
    const db = ctx.tdb.db;
    const defaults = await (await send('GET', '/notifications/settings', ctx.acme.sessionToken)).json();
    expect(defaults.data.find((s: { type: string }) => s.type === 'transactions_created')).toMatchObject({ inApp: true, email: false });
    expect(defaults.data.length).toBeGreaterThanOrEqual(9);

    const off = await send('PUT', '/notifications/settings/transactions_created', ctx.acme.sessionToken, { inApp: false });
    expect((await off.json()).data).toMatchObject({ type: 'transactions_created', inApp: false, email: false });
    const mail = await asBob('PUT', '/notifications/settings/transactions_created', { email: true });
    expect((await mail.json()).data).toMatchObject({ inApp: true, email: true });
    // Changing one channel keeps the other.
    const keep = await send('PUT', '/notifications/settings/transactions_created', ctx.acme.sessionToken, { email: false });
    expect((await keep.json()).data).toMatchObject({ inApp: false, email: false });

    const id = await notify(db, { teamId: ctx.acme.team.id, type: 'transactions_created', metadata: synced(3) });
    await notify(db, {
      teamId: ctx.acme.team.id,
      type: 'invoice_paid',
      metadata: { invoiceId: id, invoiceNumber: 'INV-7', paymentEventId: 'evt_1' },
    });
    const olives = await (await send('GET', '/notifications', ctx.acme.sessionToken)).json();
    expect(olives.data.map((n: { type: string }) => n.type)).toEqual(['invoice_paid']);
    expect((await (await send('GET', '/notifications/unread-count', ctx.acme.sessionToken)).json()).data).toEqual({ unread: 1 });
    expect((await (await asBob('GET', '/notifications/unread-count')).json()).data).toEqual({ unread: 2 });
    // Only Bob asked for email, and only for this type.
    const deliveries = await db('notification_deliveries');
    expect(deliveries).toEqual([expect.objectContaining({ notificationId: id, userId: bob.user.id, status: 'pending' })]);
    // Another team's member settings do not leak into this team.
    const otherSettings = await (await send('GET', '/notifications/settings', ctx.other.sessionToken)).json();
    expect(otherSettings.data.every((s: { inApp: boolean; email: boolean }) => s.inApp && !s.email)).toBe(true);
  });

  it('serves the same over the typed tRPC client', async () => {
    const db = ctx.tdb.db;
    const id = await notify(db, {
      teamId: ctx.acme.team.id,
      type: 'team_member_joined',
      metadata: { userId: bob.user.id, invitationId: bob.user.id, role: 'member' },
    });
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const page = await trpc.notifications.get.query({ pageSize: 10 });
    expect(page.data.map((n) => n.id)).toEqual([id]);
    expect(page.data[0].title).toBe('A new member joined the team');
    expect(await trpc.notifications.getById.query({ id })).toEqual(page.data[0]);
    expect(await trpc.notifications.unreadCount.query()).toEqual({ unread: 1 });
    expect((await trpc.notifications.updateStatus.mutate({ id, status: 'archived' })).status).toBe('archived');
    expect(await trpc.notifications.updateManyStatus.mutate({ status: 'unread', all: true })).toEqual({ updated: 1 });
    const setting = await trpc.notifications.updateSetting.mutate({ type: 'team_member_joined', data: { email: true } });
    expect(setting).toMatchObject({ inApp: true, email: true });
    expect((await trpc.notifications.settings.query()).find((s) => s.type === 'team_member_joined')?.email).toBe(true);

    expect((await trpcError(trpcAs(ctx.api, ctx.other.sessionToken).notifications.getById.query({ id }))).httpStatus).toBe(404);
    expect((await trpcError(trpc.notifications.updateManyStatus.mutate({ status: 'read' }))).httpStatus).toBe(400);
    const tagsOnly = await insertApiKey(db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['tags.read']);
    expect((await trpcError(trpcAs(ctx.api, tagsOnly).notifications.get.query({}))).httpStatus).toBe(403);
  });
});
