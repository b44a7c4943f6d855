import { statusAndBody } from '../support/api';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send: sendJson } = withTwoTeams();

const send = (method: string, path: string, token: string, body?: unknown) => sendJson(method, path, token, body).then(statusAndBody);

describe('time tracking', () => {
  it('records time, runs one timer per person, and totals it on the project', async () => {
    const project = (
      await send('POST', '/tracker-projects', ctx.acme.sessionToken, { name: 'Website', rate: 100, currency: 'EUR', billable: true })
    ).body.data;
    const done = await send('POST', '/tracker-entries', ctx.acme.sessionToken, {
      projectId: project.id,
      start: '2026-07-01T09:00:00Z',
      stop: '2026-07-01T10:30:00Z',
      description: 'design',
    });
    expect(done.status).toBe(201);
    expect(done.body.data).toMatchObject({ duration: 5400, date: '2026-07-01', assignedId: ctx.acme.user.id });

    const timer = (await send('POST', '/tracker-entries', ctx.acme.sessionToken, { projectId: project.id, start: '2026-07-02T09:00:00Z' }))
      .body.data;
    expect(timer.stop).toBeNull();
    const second = (await send('POST', '/tracker-entries', ctx.acme.sessionToken, { projectId: project.id, start: '2026-07-02T11:00:00Z' }))
      .body.data;
    const first = await ctx.tdb.db('tracker_entries').where({ id: timer.id }).first();
    expect(first.stop).not.toBeNull(); // starting a timer stopped the running one
    const stopped = await send('PATCH', `/tracker-entries/${second.id}`, ctx.acme.sessionToken, { stop: '2026-07-02T11:45:00Z' });
    expect(stopped.body.data.duration).toBe(2700);

    const range = await send('GET', '/tracker-entries?from=2026-07-01&to=2026-07-01', ctx.acme.sessionToken);
    expect(range.body.data.map((e: { description: string }) => e.description)).toEqual(['design']);
    expect(range.body.meta.totalDuration).toBe(5400);

    const view = (await send('GET', `/tracker-projects/${project.id}`, ctx.acme.sessionToken)).body.data;
    const total = view.totalDuration as number;
    expect(total).toBe(5400 + 2700 + (first.duration as number));
    expect(view.totalAmount).toBeCloseTo((total / 3600) * 100, 2);
  });

  it('refuses bad times, foreign projects and ctx.other teams', async () => {
    const project = (await send('POST', '/tracker-projects', ctx.acme.sessionToken, { name: 'Ops' })).body.data;
    const backwards = await send('POST', '/tracker-entries', ctx.acme.sessionToken, {
      projectId: project.id,
      start: '2026-07-01T10:00:00Z',
      stop: '2026-07-01T09:00:00Z',
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details[0].field).toBe('stop');
    const foreign = await send('POST', '/tracker-entries', ctx.other.sessionToken, {
      projectId: project.id,
      start: '2026-07-01T10:00:00Z',
    });
    expect(foreign.body.details).toEqual([{ field: 'projectId', message: 'no such project in your team' }]);
    expect((await send('GET', `/tracker-projects/${project.id}`, ctx.other.sessionToken)).status).toBe(404);
    expect((await send('GET', '/tracker-entries?from=2026-01-01&to=2027-06-01', ctx.acme.sessionToken)).status).toBe(400);
  });

  it('refuses an entry longer than a year, on create and on change, and changes nothing', async () => {
    const project = (await send('POST', '/tracker-projects', ctx.acme.sessionToken, { name: 'Decades' })).body.data;
    const tooLong = await send('POST', '/tracker-entries', ctx.acme.sessionToken, {
      projectId: project.id,
      start: '1990-01-01T10:00:00Z',
      stop: '2099-12-31T10:00:00Z',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details[0]).toMatchObject({ field: 'stop', message: 'an entry spans at most 366 days' });

    const entry = (
      await send('POST', '/tracker-entries', ctx.acme.sessionToken, {
        projectId: project.id,
        start: '2026-07-01T10:00:00Z',
        stop: '2026-07-01T11:00:00Z',
      })
    ).body.data;
    const stretched = await send('PATCH', `/tracker-entries/${entry.id}`, ctx.acme.sessionToken, { start: '1990-01-01T10:00:00Z' });
    expect(stretched.status).toBe(400);
    expect(stretched.body.details[0].field).toBe('stop');
    const row = await ctx.tdb.db('tracker_entries').where({ id: entry.id }).first();
    expect(row.duration).toBe(3600);
  });
});

describe('time tracking over tRPC', () => {
  it('manages projects: create with a customer, page, get, update, delete; another team sees 404', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const customer = await trpc.customers.create.mutate({ name: 'Client' });
    const project = await trpc.trackerProjects.create.mutate({ name: 'Audit', customerId: customer.id, rate: 80, currency: 'EUR' });
    expect(project).toMatchObject({
      customer: { id: customer.id, name: 'Client' },
      status: 'in_progress',
      totalDuration: 0,
      totalAmount: 0,
    });
    expect(await trpcError(trpc.trackerProjects.create.mutate({ name: 'x', customerId: ctx.acme.team.id }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'customerId', message: 'no such customer in your team' }],
    });

    const done = await trpc.trackerProjects.update.mutate({ id: project.id, data: { status: 'completed', estimateHours: 10 } });
    expect(done).toMatchObject({ status: 'completed', estimateHours: 10, rate: 80 });
    expect(await trpc.trackerProjects.getById.query({ id: project.id })).toEqual(done);
    const completed = await trpc.trackerProjects.get.query({ status: 'completed' });
    expect(completed.data.map((p) => p.id)).toEqual([project.id]);
    const first = await trpc.trackerProjects.get.query({ pageSize: 1 });
    expect(first.meta.hasNextPage).toBe(true);
    const second = await trpc.trackerProjects.get.query({ pageSize: 1, cursor: first.meta.cursor ?? undefined });
    expect(second.data[0].id).not.toBe(first.data[0].id);

    const other = trpcAs(ctx.api, ctx.other.sessionToken);
    expect(await trpcError(other.trackerProjects.getById.query({ id: project.id }))).toMatchObject({ httpStatus: 404 });
    expect(await trpcError(other.trackerProjects.update.mutate({ id: project.id, data: { name: 'x' } }))).toMatchObject({
      httpStatus: 404,
    });
    await trpc.trackerProjects.delete.mutate({ id: project.id });
    expect(await trpcError(trpc.trackerProjects.getById.query({ id: project.id }))).toMatchObject({
      httpStatus: 404,
      description: `Project ${project.id} not found`,
    });
  });

  it('records entries: a timer, its stop, the range with its total, and deletion', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const project = await trpc.trackerProjects.create.mutate({ name: 'Support', rate: 60, currency: 'EUR' });
    const timer = await trpc.trackerEntries.create.mutate({ projectId: project.id, start: '2026-08-03T08:00:00Z', description: 'tickets' });
    expect(timer).toMatchObject({ stop: null, duration: null, date: '2026-08-03', assignedId: ctx.acme.user.id, billed: false });
    const stopped = await trpc.trackerEntries.update.mutate({ id: timer.id, data: { stop: '2026-08-03T09:30:00Z', billed: true } });
    expect(stopped).toMatchObject({ stop: '2026-08-03T09:30:00.000Z', duration: 5400, billed: true });
    expect(await trpcError(trpc.trackerEntries.update.mutate({ id: timer.id, data: { stop: '2026-08-03T07:00:00Z' } }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'stop', message: 'before start' }],
    });

    const range = await trpc.trackerEntries.get.query({ from: '2026-08-03', to: '2026-08-03', projectId: project.id });
    expect(range).toEqual({ data: [stopped], meta: { totalDuration: 5400, from: '2026-08-03', to: '2026-08-03' } });
    expect((await trpc.trackerProjects.getById.query({ id: project.id })).totalAmount).toBe(90);

    const other = trpcAs(ctx.api, ctx.other.sessionToken);
    expect(await trpcError(other.trackerEntries.delete.mutate({ id: timer.id }))).toMatchObject({ httpStatus: 404 });
    await trpc.trackerEntries.delete.mutate({ id: timer.id });
    expect((await trpc.trackerEntries.get.query({ from: '2026-08-03', to: '2026-08-03' })).data).toEqual([]);
    expect(await trpcError(trpc.trackerEntries.get.query({ from: '2026-08-03', to: '2027-09-03' }))).toMatchObject({ httpStatus: 400 });
  });
});
