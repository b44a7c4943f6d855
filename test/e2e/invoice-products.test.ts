import { statusAndBody } from '../support/api';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send: sendJson } = withTwoTeams();
const send = (method: string, path: string, body?: unknown, token = ctx.acme.sessionToken) =>
  sendJson(method, path, token, body).then(statusAndBody);

describe('invoice numbering', () => {
  it("numbers invoices as they are issued, with the team's prefix, from the chosen next number, passing over numbers given by hand", async () => {
    const draft = async (body: Record<string, unknown> = {}, token = ctx.acme.sessionToken) =>
      (await send('POST', '/invoices', { currency: 'EUR', lineItems: [{ name: 'x', price: 1 }], ...body }, token)).body.data;
    const issue = async (id: string, token = ctx.acme.sessionToken) =>
      (await send('POST', `/invoices/${id}/finalize`, undefined, token)).body.data.invoiceNumber as string;
    const first = await draft();
    expect(first.invoiceNumber).toBeNull();
    // A draft deleted before it is issued takes no number with it.
    expect((await send('DELETE', `/invoices/${(await draft()).id}`)).status).toBe(204);
    expect(await issue(first.id)).toBe('INV-0001');
    expect((await send('PATCH', '/teams/current', { invoicePrefix: 'AC 2026' })).status).toBe(400);
    const team = await send('PATCH', '/teams/current', { invoicePrefix: 'AC-', invoiceNextNumber: 120 });
    expect(team.body.data).toMatchObject({ invoicePrefix: 'AC-', invoiceNextNumber: 120 });
    expect(await issue((await draft()).id)).toBe('AC-0120');
    expect(await issue((await draft()).id)).toBe('AC-0121');
    // A number given by hand keeps it; the series passes over it rather than repeat it (it is in use: no gap).
    const byHand = await draft({ invoiceNumber: 'AC-0122' });
    expect(byHand.invoiceNumber).toBe('AC-0122');
    expect(await issue((await draft()).id)).toBe('AC-0123');
    expect(await issue(byHand.id)).toBe('AC-0122');
    const taken = await send('POST', '/invoices', { invoiceNumber: 'AC-0123', currency: 'EUR', lineItems: [{ name: 'x', price: 1 }] });
    expect(taken.status).toBe(409);
    // Another team's numbers are its own.
    expect(await issue((await draft({}, ctx.other.sessionToken)).id, ctx.other.sessionToken)).toBe('INV-0001');
  });
});

describe('products', () => {
  it('saves, lists, edits and deletes products; names are unique per team; other teams see 404', async () => {
    const created = await send('POST', '/invoice-products', { name: 'Consulting hour', price: 120, unit: 'h', vatRate: 19 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Consulting hour', price: 120, unit: 'h', vatRate: 19, taxRate: null, currency: null });
    const id = created.body.data.id as string;
    expect((await send('POST', '/invoice-products', { name: 'consulting HOUR', price: 1 })).status).toBe(409);
    expect((await send('POST', '/invoice-products', { name: 'Consulting hour', price: 1 }, ctx.other.sessionToken)).status).toBe(201);
    await send('POST', '/invoice-products', { name: 'Hosting', price: 50, currency: 'EUR' });

    const found = await send('GET', '/invoice-products?q=consult');
    expect(found.body.data.map((p: { id: string }) => p.id)).toEqual([id]);
    const edited = await send('PATCH', `/invoice-products/${id}`, { price: 130, description: 'On site' });
    expect(edited.body.data).toMatchObject({ price: 130, description: 'On site', name: 'Consulting hour' });
    expect((await send('GET', `/invoice-products/${id}`, undefined, ctx.other.sessionToken)).status).toBe(404);
    expect((await send('PATCH', `/invoice-products/${id}`, { price: 1 }, ctx.other.sessionToken)).status).toBe(404);
    expect((await send('DELETE', `/invoice-products/${id}`)).status).toBe(204);
    expect((await send('GET', `/invoice-products/${id}`)).status).toBe(404);
  });

  it('speaks tRPC', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const p = await trpc.invoiceProducts.create.mutate({ name: 'Licence', price: 300, taxRate: 5 });
    expect((await trpc.invoiceProducts.getById.query({ id: p.id })).price).toBe(300);
    expect(await trpc.invoiceProducts.update.mutate({ id: p.id, data: { unit: 'seat' } })).toMatchObject({ unit: 'seat' });
    expect((await trpc.invoiceProducts.get.query({ q: 'Licence' })).data).toHaveLength(1);
    await trpc.invoiceProducts.delete.mutate({ id: p.id });
    expect(await trpcError(trpc.invoiceProducts.getById.query({ id: p.id }))).toMatchObject({ httpStatus: 404 });
  });
});
