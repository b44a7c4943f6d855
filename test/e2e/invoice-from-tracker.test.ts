import { insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();

const entry = (projectId: string, date: string, hours: number, extra: Record<string, unknown> = {}) => {
  const start = new Date(`${date}T09:00:00Z`);
  return {
    teamId: ctx.acme.team.id,
    projectId,
    date,
    start,
    stop: new Date(start.getTime() + hours * 3_600_000),
    duration: Math.round(hours * 3600),
    ...extra,
  };
};

describe('POST /invoices/from-tracker', () => {
  it("bills a period's unbilled time once: hours × rate per entry, entries marked, nothing billed twice", async () => {
    const customer = (await (await send('POST', '/customers', ctx.acme.sessionToken, { name: 'Umbrella' })).json()).data;
    const [project] = await ctx.tdb
      .db('tracker_projects')
      .insert({ teamId: ctx.acme.team.id, customerId: customer.id, name: 'Website', billable: true, rate: 120, currency: 'EUR' })
      .returning('id');
    const rows = await ctx.tdb
      .db('tracker_entries')
      .insert([
        entry(project.id, '2026-11-02', 1.5, { description: 'Design review' }),
        entry(project.id, '2026-11-03', 2, { rate: 150 }), // its own rate
        entry(project.id, '2026-11-04', 0.25),
        entry(project.id, '2026-10-30', 3), // before the period
        entry(project.id, '2026-11-05', 4, { billed: true }), // billed already
        { ...entry(project.id, '2026-11-06', 1), stop: null, duration: null }, // still running
      ])
      .returning('id');

    const res = await send('POST', '/invoices/from-tracker', ctx.acme.sessionToken, {
      projectId: project.id,
      from: '2026-11-01',
      to: '2026-11-30',
      dueDate: '2026-12-15',
    });
    expect(res.status).toBe(201);
    const invoice = (await res.json()).data;
    expect(invoice).toMatchObject({ status: 'draft', currency: 'EUR', customer: { id: customer.id }, dueDate: '2026-12-15' });
    expect(
      invoice.lineItems.map((l: { name: string; quantity: number; price: number; unit: string }) => [l.name, l.quantity, l.price, l.unit]),
    ).toEqual([
      ['Design review (2026-11-02)', 1.5, 120, 'hours'],
      ['Website (2026-11-03)', 2, 150, 'hours'],
      ['Website (2026-11-04)', 0.25, 120, 'hours'],
    ]);
    expect(invoice.amount).toBe(1.5 * 120 + 2 * 150 + 0.25 * 120);

    const billed = await ctx.tdb.db('tracker_entries').where({ invoiceId: invoice.id }).orderBy('date');
    expect(billed.map((e) => e.id)).toEqual([rows[0].id, rows[1].id, rows[2].id]);
    expect(billed.every((e) => e.billed)).toBe(true);

    const period = { projectId: project.id, from: '2026-11-01', to: '2026-11-30' };
    expect((await send('POST', '/invoices/from-tracker', ctx.acme.sessionToken, period)).status).toBe(409);

    // Deleting the draft makes its time billable again; two requests at once bill it once.
    expect((await send('DELETE', `/invoices/${invoice.id}`, ctx.acme.sessionToken)).status).toBe(204);
    const race = await Promise.all([1, 2].map(() => send('POST', '/invoices/from-tracker', ctx.acme.sessionToken, period)));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = (await race.find((r) => r.status === 201)!.json()).data;
    expect(winner.amount).toBe(invoice.amount);
    expect(await ctx.tdb.db('tracker_entries').where({ invoiceId: winner.id })).toHaveLength(3);

    expect((await send('DELETE', `/invoices/${winner.id}`, ctx.acme.sessionToken)).status).toBe(204);
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const rebilled = await trpc.invoices.createFromTracker.mutate(period);
    expect(rebilled.amount).toBe(invoice.amount);
  });

  it('refuses a project without a rate, another team’s project, bad periods and callers without both scopes', async () => {
    const [noRate] = await ctx.tdb.db('tracker_projects').insert({ teamId: ctx.acme.team.id, name: 'Internal' }).returning('id');
    await ctx.tdb.db('tracker_entries').insert(entry(noRate.id, '2026-11-10', 1));
    const priced = await send('POST', '/invoices/from-tracker', ctx.acme.sessionToken, {
      projectId: noRate.id,
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(priced.status).toBe(400);
    expect((await priced.json()).details).toEqual([{ field: 'projectId', message: 'set the project’s rate first' }]);
    expect(await ctx.tdb.db('tracker_entries').where({ projectId: noRate.id, billed: true })).toHaveLength(0);

    const theirs = await send('POST', '/invoices/from-tracker', ctx.other.sessionToken, {
      projectId: noRate.id,
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(theirs.status).toBe(400);
    const backwards = await send('POST', '/invoices/from-tracker', ctx.acme.sessionToken, {
      projectId: noRate.id,
      from: '2026-12-01',
      to: '2026-11-01',
    });
    expect(backwards.status).toBe(400);
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['invoices.write']);
    expect((await send('POST', '/invoices/from-tracker', key, { projectId: noRate.id, from: '2026-11-01', to: '2026-11-30' })).status).toBe(
      403,
    );
    expect(
      await trpcError(
        trpcAs(ctx.api, key).invoices.createFromTracker.mutate({ projectId: noRate.id, from: '2026-11-01', to: '2026-11-30' }),
      ),
    ).toMatchObject({ httpStatus: 403 });
  });
});
