import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestApi, type TestApi } from '../support/api';
import { insertApiKey, insertDocument } from '../support/fixtures';
import { oauthAccessToken } from '../support/oauth';
import { withTwoTeams } from '../support/two-teams';

const { ctx } = withTwoTeams();

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const now = new Date();
const [Y, M] = [now.getUTCFullYear(), now.getUTCMonth()];
const lastMonth = { from: day(Y, M - 1, 1), to: day(Y, M, 0) };

let acmeLease: string;

/** The SDK's own client over streamable HTTP, as an AI agent connects, with a bearer token. */
async function connect(token: string, api: TestApi = ctx.api): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

beforeAll(async () => {
  const acme = ctx.acme.team.id;
  await ctx.tdb.db('teams').where({ id: acme }).update({ baseCurrency: 'EUR' });
  await ctx.tdb.db('transaction_categories').insert({ teamId: acme, name: 'Software', slug: 'software' });
  await ctx.tdb.db('transactions').insert([
    { teamId: acme, date: day(Y, M - 1, 4), name: 'Figma', amount: -60, currency: 'EUR', categorySlug: 'software' },
    { teamId: ctx.other.team.id, date: day(Y, M - 1, 4), name: 'Figma', amount: -9, currency: 'EUR' },
  ]);
  await ctx.tdb.db('invoices').insert({ teamId: acme, invoiceNumber: 'INV-9', status: 'unpaid', currency: 'EUR', amount: 300 });
  const lease = { name: 'lease.pdf', content: 'Office lease agreement', kind: 'contract' };
  acmeLease = await insertDocument(ctx.tdb.db, acme, lease);
  await insertDocument(ctx.tdb.db, ctx.other.team.id, lease);
});

describe('MCP at /mcp', () => {
  it('lists the tools an OAuth access token (from the authorization-code flow) may use, and calls one', async () => {
    const { access_token: token } = await oauthAccessToken(ctx.api, ctx.acme.sessionToken, ctx.acme.sessionToken, [
      'reports.read',
      'invoices.read',
    ]);
    const client = await connect(token);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'burn_rate',
        'cash_flow',
        'profit_and_loss',
        'revenue',
        'runway',
        'spending',
        'unpaid_invoices',
      ]);
      const spending = tools.find((t) => t.name === 'spending')!;
      expect(spending.inputSchema).toMatchObject({
        type: 'object',
        properties: { from: { type: 'string' }, category: { type: 'string' } },
      });

      const result = await client.callTool({ name: 'spending', arguments: { ...lastMonth, category: 'software' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ currency: 'EUR', total: 60, matched: [{ slug: 'software', amount: 60 }] });
      expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(result.structuredContent);

      const invoices = await client.callTool({ name: 'unpaid_invoices', arguments: {} });
      expect(invoices.structuredContent).toMatchObject({ count: 1, totals: [{ currency: 'EUR', amount: 300 }] });

      // A tool beyond its scopes does not exist for it; bad arguments are a readable tool error.
      const hidden = await client.callTool({ name: 'transactions_search', arguments: {} });
      expect(hidden).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringContaining('transactions_search not found') }],
      });
      const bad = await client.callTool({ name: 'spending', arguments: { from: 'last week' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('from');
    } finally {
      await client.close();
    }
  });

  it("answers with the token's own team only", async () => {
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.other.team.id, userId: ctx.other.user.id }, ['reports.read']);
    const client = await connect(key);
    try {
      const result = await client.callTool({ name: 'spending', arguments: lastMonth });
      expect(result.structuredContent).toMatchObject({ total: 9 });
    } finally {
      await client.close();
    }
  });

  it("searches the token's own team's documents with documents.read", async () => {
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['documents.read']);
    const client = await connect(key);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['documents_search']);
      const result = await client.callTool({ name: 'documents_search', arguments: { query: 'lease' } });
      expect(result.structuredContent).toEqual({
        query: 'lease',
        documents: [{ id: acmeLease, name: 'lease.pdf', title: null, kind: 'contract', uploaded: expect.any(String), tags: [] }],
        hasMore: false,
      });
    } finally {
      await client.close();
    }
  });

  it("spends the user's chat budget on each tool call: over it, a JSON-RPC error with the wait, and nothing runs", async () => {
    const limited = await startTestApi(ctx.tdb.db, { env: { CHAT_RATE_LIMIT: '2', CHAT_RATE_LIMIT_WINDOW: '1m' } });
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['reports.read', 'chat.write']);
    const client = await connect(key, limited);
    try {
      await client.listTools(); // costs nothing: only tool calls run reports
      expect((await client.callTool({ name: 'runway', arguments: {} })).isError).toBeFalsy();
      const chat = await limited.fetch('/chat', {
        method: 'POST',
        token: key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'What is our runway?' }),
      });
      expect(chat.status).toBe(200);
      await chat.text();

      const refused = await client.callTool({ name: 'runway', arguments: {} }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(McpError);
      expect(refused).toMatchObject({ code: -32000, data: { retryAfter: expect.any(Number) } });
      expect((refused as McpError).message).toMatch(
        /Limit of 2 assistant calls \(chat messages and MCP tool calls\) reached; retry in \d+ s$/,
      );

      const raw = await limited.fetch('/mcp', {
        method: 'POST',
        token: key,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'runway', arguments: {} } }),
      });
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await raw.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32000 } });
      expect(
        (
          await limited.fetch('/chat', {
            method: 'POST',
            token: key,
            headers: { 'content-type': 'application/json' },
            body: '{"message":"hi"}',
          })
        ).status,
      ).toBe(429);
    } finally {
      await client.close();
      await limited.stop();
    }
  });

  it('reads "today" where the user is (their time zone, else their team\'s), as chat does', async () => {
    // A zone whose date is not UTC's at this hour.
    const far = new Date().getUTCHours() < 12 ? 'Etc/GMT+12' : 'Etc/GMT-14';
    const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    const key = await insertApiKey(ctx.tdb.db, { teamId: ctx.other.team.id, userId: ctx.other.user.id }, ['reports.read']);
    const spendingUntil = async () => {
      const client = await connect(key);
      try {
        const { structuredContent } = await client.callTool({ name: 'spending', arguments: {} });
        return (structuredContent as { to?: string } | undefined)?.to;
      } finally {
        await client.close();
      }
    };
    await ctx.tdb.db('teams').where({ id: ctx.other.team.id }).update({ timezone: far });
    expect(await spendingUntil()).toBe(todayIn(far));
    await ctx.tdb.db('users').where({ id: ctx.other.user.id }).update({ timezone: 'UTC' });
    expect(await spendingUntil()).toBe(todayIn('UTC'));
  });

  it('refuses a request without a token with 401 pointing at the RFC 9728 metadata, which names our OAuth server', async () => {
    const res = await ctx.api.fetch('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'Authorization header required' });
    const pointer = /resource_metadata="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1];
    expect(pointer).toBe(`${ctx.api.url}/.well-known/oauth-protected-resource/mcp`);

    const metadata = await (await ctx.api.fetch(new URL(pointer!).pathname)).json();
    expect(metadata).toMatchObject({
      resource: `${ctx.api.url}/mcp`,
      authorization_servers: [ctx.api.url],
      bearer_methods_supported: ['header'],
    });
    expect(metadata.scopes_supported).toContain('reports.read');
    const server = await (await ctx.api.fetch('/.well-known/oauth-authorization-server')).json();
    expect(server.issuer).toBe(metadata.authorization_servers[0]);
  });
});
