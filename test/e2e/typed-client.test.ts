import { createFinopsClient, type FinopsClient, type FinopsError } from '../../clients/typescript/src';
import { withTwoTeams } from '../support/two-teams';

const { ctx } = withTwoTeams();

/** clients/typescript as a user of the package drives it: the generated types, openapi-fetch, a bearer token. */
const clientOf = (token: string) => createFinopsClient({ baseUrl: ctx.api.url, token });

async function create(client: FinopsClient, name: string, amount: number) {
  const { data, error, response } = await client.POST('/transactions', {
    body: { date: '2026-11-20', name, amount, currency: 'EUR', method: 'other', status: 'posted' },
  });
  expect({ status: response.status, error }).toEqual({ status: 201, error: undefined });
  return data!.data;
}

describe('the typed client (clients/typescript)', () => {
  it('creates transactions, lists them by -amount and pages through meta.cursor to the end', async () => {
    const acme = clientOf(ctx.acme.sessionToken);
    const made = [await create(acme, 'Rent', -1200), await create(acme, 'Consulting', 4800.5), await create(acme, 'Coffee', -3.2)];
    // Another team's larger amount must not appear in Acme's pages.
    await create(clientOf(ctx.other.sessionToken), 'Other team income', 99999);

    const seen: { id: string; amount: number }[] = [];
    const pages: boolean[] = [];
    let cursor: string | undefined;
    do {
      const { data, error, response } = await acme.GET('/transactions', {
        params: { query: { sort: '-amount', pageSize: 2, cursor } },
      });
      expect({ status: response.status, error }).toEqual({ status: 200, error: undefined });
      seen.push(...data!.data.map((t) => ({ id: t.id, amount: t.amount })));
      pages.push(data!.meta.hasNextPage);
      cursor = data!.meta.cursor ?? undefined;
    } while (cursor && pages.length < 5);

    expect(pages).toEqual([true, false]);
    const expected = [...made].sort((a, b) => b.amount - a.amount).map((t) => ({ id: t.id, amount: t.amount }));
    expect(seen).toEqual(expected);
    expect(seen.map((t) => t.amount)).toEqual([4800.5, -3.2, -1200]);
  });

  it('answers a bad sort with a 400 whose error is the typed envelope', async () => {
    const { data, error, response } = await clientOf(ctx.acme.sessionToken).GET('/transactions', {
      params: { query: { sort: 'colour' } },
    });
    // Compile-time: the error of this path is the API's envelope, not unknown.
    const envelope: FinopsError | undefined = error;
    expect(response.status).toBe(400);
    expect(data).toBeUndefined();
    expect(envelope).toEqual({
      error: 'Bad Request',
      description: expect.any(String),
      details: [{ field: 'sort', message: expect.stringContaining('unknown sort field `colour`') }],
    });
  });

  it('refuses a request without a valid token with the same envelope', async () => {
    const { error, response } = await clientOf('not-a-token').GET('/transactions');
    expect(response.status).toBe(401);
    expect(error).toEqual({ error: 'Unauthorized', description: expect.any(String) });
  });
});
