import { withTwoTeams } from '../support/two-teams';

const { ctx, send: sendJson } = withTwoTeams();

const send = (method: string, path: string, token: string, body?: unknown) =>
  sendJson(method, path, token, body).then(async (r) => ({ status: r.status, body: r.status === 204 ? null : await r.json() }));

describe('time tracking', () => {
  it('records time, runs one timer per person, and totals it on the project', async () => {
    const project = (await send('POST', '/tracker-projects', ctx.acme.sessionToken, { name: 'Website', rate: 100, currency: 'EUR', billable: true })).body.data;
    const done = await send('POST', '/tracker-entries', ctx.acme.sessionToken, { projectId: project.id, start: '2026-07-01T09:00:00Z', stop: '2026-07-01T10:30:00Z', description: 'design' });
    expect(done.status).toBe(201);
    expect(done.body.data).toMatchObject({ duration: 5400, date: '2026-07-01', assignedId: ctx.acme.user.id });

    const timer = (await send('POST', '/tracker-entries', ctx.acme.sessionToken, { projectId: project.id, start: '2026-07-02T09:00:00Z' })).body.data;
    expect(timer.stop).toBeNull();
    const second = (await send('POST', '/tracker-entries', ctx.acme.sessionToken, { projectId: project.id, start: '2026-07-02T11:00:00Z' })).body.data;
    const first = await ctx.tdb.db('tracker_entries').where({ id: timer.id }).first();
    expect(first.stop).not.toBeNull(); // starting a timer stopped the running one
    const stopped = await send('PATCH', `/tracker-entries/${second.id}`, ctx.acme.sessionToken, { stop: '2026-07-02T11:45:00Z' });
    expect(stopped.body.data.duration).toBe(2700);

    const range = await send('GET', '/tracker-entries?from=2026-07-01&to=2026-07-01', ctx.acme.sessionToken);
    expect(range.body.data.map((e: any) => e.description)).toEqual(['design']);
    expect(range.body.meta.totalDuration).toBe(5400);

    const view = (await send('GET', `/tracker-projects/${project.id}`, ctx.acme.sessionToken)).body.data;
    const total = view.totalDuration;
    expect(total).toBe(5400 + 2700 + first.duration);
    expect(view.totalAmount).toBeCloseTo((total / 3600) * 100, 2);
  });

  it('refuses bad times, foreign projects and ctx.other teams', async () => {
    const project = (await send('POST', '/tracker-projects', ctx.acme.sessionToken, { name: 'Ops' })).body.data;
    const backwards = await send('POST', '/tracker-entries', ctx.acme.sessionToken, { projectId: project.id, start: '2026-07-01T10:00:00Z', stop: '2026-07-01T09:00:00Z' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details[0].field).toBe('stop');
    const foreign = await send('POST', '/tracker-entries', ctx.other.sessionToken, { projectId: project.id, start: '2026-07-01T10:00:00Z' });
    expect(foreign.body.details).toEqual([{ field: 'projectId', message: 'no such project in your team' }]);
    expect((await send('GET', `/tracker-projects/${project.id}`, ctx.other.sessionToken)).status).toBe(404);
    expect((await send('GET', '/tracker-entries?from=2026-01-01&to=2027-06-01', ctx.acme.sessionToken)).status).toBe(400);
  });
});
