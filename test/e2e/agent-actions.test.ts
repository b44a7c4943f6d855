import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { queryAgentActionStage } from '../../shared/temporal/agent-action/calls';
import { agentActionWorkflowId } from '../../shared/temporal/agent-action/contract';
import { Stage, TeamId } from '../../shared/temporal/search-attribute-keys';
import { startLlmChatFake } from '../fakes/llm-chat';
import { signedDelivery, startMessagingFake } from '../fakes/messaging';
import { chatEvents } from '../support/sse';
import { sendJson, startTestApi, statusAndBody, type TestApi } from '../support/api';
import { eventually } from '../support/eventually';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { oauthAccessToken } from '../support/oauth';
import { withStack } from '../support/stack';
import { trpcAs } from '../support/trpc';
import type { UntypedJson } from '../support/untyped-json';

const TOKEN = 'test-messaging-token';
const APP_SECRET = 'test-app-secret';
const PHONE = '4915187654321';

let messaging: Awaited<ReturnType<typeof startMessagingFake>>;
const started: { messaging?: typeof messaging; shortLived?: TestApi; withModel?: TestApi; llm?: { close(): Promise<void> } } = {};
beforeAll(async () => {
  messaging = started.messaging = await startMessagingFake(TOKEN);
});
afterAll(async () => {
  await started.withModel?.stop();
  await started.llm?.close();
  await started.shortLived?.stop();
  await started.messaging?.close();
});
const stack = withStack('agent-actions', () => ({
  MESSAGING_API_URL: messaging.url,
  MESSAGING_ACCESS_TOKEN: TOKEN,
  MESSAGING_APP_SECRET: APP_SECRET,
  AGENT_ACTION_EXPIRY: '1h',
}));

/** The SDK's own client over streamable HTTP, as an AI agent connects, with a bearer token. */
async function connect(token: string, api: TestApi = stack.api): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

let agentToken: string;
let ids: string[];

const owner = () => stack.acme.sessionToken;
const categories = () =>
  stack.tdb
    .db('transactions')
    .whereIn('id', ids)
    .orderBy('name')
    .select<{ name: string; categorySlug: string | null; updatedAt: Date }[]>('name', 'categorySlug', 'updatedAt');
const events = async () =>
  Number((await stack.tdb.db('events').where({ teamId: stack.acme.team.id, type: 'transaction.updated' }).count('* as n'))[0].n);

async function propose(client: Client, args: Record<string, unknown>, tool = 'categorize_transactions') {
  const res = await client.callTool({ name: tool, arguments: args });
  expect(res.isError).toBeFalsy();
  return res.structuredContent as UntypedJson;
}

beforeAll(async () => {
  const teamId = stack.acme.team.id;
  await stack.tdb.db('transaction_categories').insert([
    { teamId, name: 'Software', slug: 'software' },
    { teamId, name: 'Travel', slug: 'travel' },
  ]);
  const rows = await stack.tdb
    .db('transactions')
    .insert(
      ['Figma', 'GitHub', 'Notion', 'Slack', 'Linear', 'Vercel', 'Sentry'].map((name, i) => ({
        teamId,
        date: `2026-10-0${i + 1}`,
        name,
        amount: -(10 + i),
        currency: 'EUR',
      })),
    )
    .returning('id');
  ids = rows.map((r: { id: string }) => r.id);
  agentToken = (await oauthAccessToken(stack.api, owner(), owner(), ['transactions.read', 'transactions.write', 'agent-actions.write']))
    .access_token;
});

describe('agent actions', () => {
  it('lists the write tools its scopes allow, with their annotations, and read tools as read-only', async () => {
    const client = await connect(agentToken);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'bulk_update_transactions',
        'categorize_transactions',
        'category_why',
        'create_transaction',
        'payments_to',
        'transactions_search',
        'update_transaction',
      ]);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.transactions_search.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(byName.category_why.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.categorize_transactions.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      });
      expect(byName.create_transaction.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      // Input the operation would refuse is refused now, as a tool error, and nothing is proposed.
      const unknown = await client.callTool({ name: 'categorize_transactions', arguments: { transactionIds: ids, category: 'nope' } });
      expect(unknown.isError).toBe(true);
      expect(JSON.stringify(unknown.content)).toContain('categorySlug');
    } finally {
      await client.close();
    }
    const invoicesOnly = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['invoices.write']);
    const other = await connect(invoicesOnly);
    try {
      const { tools } = await other.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['create_invoice', 'send_invoice']);
      expect(tools.find((t) => t.name === 'send_invoice')!.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
      // A tool beyond its scopes cannot be called either: a tool error, nothing proposed.
      const refused = await other.callTool({ name: 'categorize_transactions', arguments: { transactionIds: ids, category: 'software' } });
      expect(refused.isError).toBe(true);
      expect(await stack.tdb.db('agent_actions').where({ teamId: stack.acme.team.id }).count('* as n')).toEqual([{ n: 0 }]);
    } finally {
      await other.close();
    }
  });

  it('proposes a bulk categorisation that waits; the agent cannot approve it; a person approves and it applies once', async () => {
    const client = await connect(agentToken);
    const before = await categories();
    const eventsBefore = await events();
    let proposal: UntypedJson;
    try {
      proposal = await propose(client, { transactionIds: ids, category: 'software' });
    } finally {
      await client.close();
    }
    expect(proposal).toMatchObject({
      status: 'pending_approval',
      actionId: expect.any(String),
      preview: { count: 7, summary: 'set categorySlug on 7 transactions' },
    });
    expect(proposal.preview.sample).toHaveLength(5);
    expect(proposal.preview.sample[0]).toMatchObject({ before: { categorySlug: null }, after: { categorySlug: 'software' } });
    const id: string = proposal.actionId;
    // Nothing changed yet.
    expect(await categories()).toEqual(before);

    const run = stack.worker.client.workflow.getHandle(agentActionWorkflowId(id));
    await eventually(
      async () => (await queryAgentActionStage(stack.api.deps.temporal, id)).stage === 'awaiting_approval',
      30_000,
      'waiting',
    );
    const described = await run.describe();
    expect(described.typedSearchAttributes.get(TeamId)).toBe(stack.acme.team.id);
    expect(described.typedSearchAttributes.get(Stage)).toBe('awaiting_approval');
    expect(await described.staticSummary()).toContain('transactions.bulkUpdate');

    // The user hears of it in the app.
    const notice = await stack.tdb.db('notifications').where({ teamId: stack.acme.team.id, type: 'agent_action_proposed' }).first();
    expect(notice).toMatchObject({ userId: stack.acme.user.id, metadata: { agentActionId: id, operation: 'transactions.bulkUpdate' } });

    // Listed with who proposed it.
    const listed = await statusAndBody(await stack.api.fetch('/agent-actions?status=pending', { token: owner() }));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id,
        status: 'pending',
        operation: 'transactions.bulkUpdate',
        tool: 'categorize_transactions',
        via: 'mcp',
        input: { ids: expect.any(Array), set: { categorySlug: 'software' } },
        proposedBy: { kind: 'oauth', clientId: expect.any(String), clientName: 'Agent', userId: stack.acme.user.id },
        decision: null,
      }),
    ]);

    // The agent's own token holds agent-actions.write and still cannot approve its own action.
    const own = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${id}/approve`, agentToken));
    expect(own.status).toBe(403);
    // A member of another team does not see it.
    const stranger = await createTeamAndOwner(stack.tdb.db, 'Other');
    expect((await sendJson(stack.api, 'POST', `/agent-actions/${id}/approve`, stranger.sessionToken)).status).toBe(404);
    expect((await stack.api.fetch(`/agent-actions/${id}`, { token: stranger.sessionToken })).status).toBe(404);
    expect(await categories()).toEqual(before);

    // The person approves: the result comes back at once, and the rows changed once.
    const approved = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${id}/approve`, owner()));
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      result: { matched: 7, changed: 7 },
      action: { id, status: 'applied', decision: { via: 'api', userId: stack.acme.user.id }, result: { matched: 7, changed: 7 } },
    });
    expect((await categories()).map((c) => c.categorySlug)).toEqual(Array(7).fill('software'));
    expect(await events()).toBe(eventsBefore + 7);
    // On the audit trail as the agent's change, for the user, through the client that proposed it.
    const audited = await stack.tdb
      .db('audit_events')
      .where({ teamId: stack.acme.team.id, targetType: 'transactions', action: 'update', operation: 'transactions.bulkUpdate' })
      .select('targetId', 'actorKind', 'actorId', 'credentialKind', 'credentialId');
    expect(new Set(audited.map((a) => a.targetId as string)).size).toBe(7);
    expect(new Set(audited.map(({ targetId: _, ...who }) => JSON.stringify(who)))).toEqual(
      new Set([
        JSON.stringify({
          actorKind: 'agent',
          actorId: stack.acme.user.id,
          credentialKind: 'oauth',
          credentialId: listed.body.data[0].proposedBy.clientId,
        }),
      ]),
    );

    // A second approval is refused and applies nothing again.
    const again = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${id}/approve`, owner()));
    expect(again.status).toBe(409);
    expect(await events()).toBe(eventsBefore + 7);
    expect(await run.result()).toEqual({ stage: 'applied' });
  });

  it('a decline applies nothing', async () => {
    const client = await connect(agentToken);
    const before = await categories();
    try {
      const { actionId } = await propose(client, { transactionIds: ids.slice(0, 2), category: 'travel' });
      const declined = await trpcAs(stack.api, owner()).agentActions.decline.mutate({ id: actionId });
      expect(declined).toMatchObject({ id: actionId, status: 'declined', decision: { via: 'api' } });
      expect((await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner())).status).toBe(409);
      expect(await stack.worker.client.workflow.getHandle(agentActionWorkflowId(actionId)).result()).toEqual({ stage: 'declined' });
    } finally {
      await client.close();
    }
    expect(await categories()).toEqual(before);
  });

  it('refuses an approval when a previewed row changed since, and applies nothing', async () => {
    const client = await connect(agentToken);
    try {
      const { actionId } = await propose(client, { transactionIds: ids.slice(0, 3), category: 'travel' });
      const changed = await sendJson(stack.api, 'PATCH', `/transactions/${ids[1]}`, owner(), { note: 'checked by hand' });
      expect(changed.status).toBe(200);
      const before = await categories();
      const refused = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner()));
      expect(refused.status).toBe(409);
      expect(refused.body.description).toMatch(/changed since/);
      expect(await categories()).toEqual(before);
      const action = await statusAndBody(await stack.api.fetch(`/agent-actions/${actionId}`, { token: owner() }));
      expect(action.body.data).toMatchObject({ status: 'stale', error: expect.stringContaining('changed since') });
      expect(await stack.worker.client.workflow.getHandle(agentActionWorkflowId(actionId)).result()).toEqual({ stage: 'stale' });
    } finally {
      await client.close();
    }
  });

  it('refuses an approval after the expiry, and applies nothing', async () => {
    const shortLived = (started.shortLived = await startTestApi(stack.tdb.db, { env: { ...stack.env, AGENT_ACTION_EXPIRY: '2s' } }));
    const client = await connect(agentToken, shortLived);
    const before = await categories();
    try {
      const { actionId, expiresAt } = await propose(client, { transactionIds: ids.slice(0, 2), category: 'travel' });
      expect(Date.parse(expiresAt) - Date.now()).toBeLessThan(2500);
      const run = stack.worker.client.workflow.getHandle(agentActionWorkflowId(actionId));
      expect(await run.result()).toEqual({ stage: 'expired' });
      const refused = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner()));
      expect(refused.status).toBe(409);
      const action = await statusAndBody(await stack.api.fetch(`/agent-actions/${actionId}`, { token: owner() }));
      expect(action.body.data).toMatchObject({ status: 'expired', decision: { via: 'timeout', userId: null } });
    } finally {
      await client.close();
    }
    expect(await categories()).toEqual(before);
  });

  it("applies at once under the team's policy limit, and proposes above it; only a person's session sets the policy", async () => {
    const policy = { policies: [{ operation: 'transactions.bulkUpdate', maxCount: 3 }] };
    expect((await sendJson(stack.api, 'PUT', '/agent-actions/policies', agentToken, policy)).status).toBe(403);
    const bad = await statusAndBody(
      await sendJson(stack.api, 'PUT', '/agent-actions/policies', owner(), { policies: [{ operation: 'teams.delete', maxCount: 3 }] }),
    );
    expect(bad.status).toBe(400);
    const set = await statusAndBody(await sendJson(stack.api, 'PUT', '/agent-actions/policies', owner(), policy));
    expect(set).toEqual({ status: 200, body: { data: policy } });
    expect(await trpcAs(stack.api, owner()).agentActions.getPolicies.query()).toEqual(policy);

    const client = await connect(agentToken);
    try {
      const small = await propose(client, { transactionIds: ids.slice(0, 3), category: 'software' });
      expect(small).toMatchObject({ status: 'applied', result: { matched: 3 } });
      const rows = await stack.tdb
        .db('transactions')
        .whereIn('id', ids.slice(0, 3))
        .select('categorySlug')
        .then((r: { categorySlug: string | null }[]) => r.map((x) => x.categorySlug));
      expect(rows).toEqual(['software', 'software', 'software']);
      const stored = await stack.tdb.db('agent_actions').where({ id: small.actionId }).first();
      expect(stored).toMatchObject({ status: 'applied', decidedVia: 'policy' });

      const large = await propose(client, { transactionIds: ids.slice(0, 4), category: 'travel' });
      expect(large).toMatchObject({ status: 'pending_approval', preview: { count: 4 } });
      expect(
        await stack.tdb
          .db('transactions')
          .whereIn('id', ids.slice(0, 3))
          .select('categorySlug')
          .then((r: { categorySlug: string | null }[]) => r.map((x) => x.categorySlug)),
      ).toEqual(['software', 'software', 'software']);
      // Over tRPC as over REST: listed, read, approved with the result (the 3 applied before and one more change to travel).
      const trpc = trpcAs(stack.api, owner());
      expect((await trpc.agentActions.get.query({ status: ['pending'] })).data.map((a) => a.id)).toContain(large.actionId);
      expect(await trpc.agentActions.getById.query({ id: large.actionId })).toMatchObject({ status: 'pending', preview: { count: 4 } });
      const approved = await trpc.agentActions.approve.mutate({ id: large.actionId });
      expect(approved).toMatchObject({ result: { matched: 4, changed: 4 }, action: { status: 'applied' } });
    } finally {
      await client.close();
      await trpcAs(stack.api, owner()).agentActions.updatePolicies.mutate({ policies: [] });
    }
  });

  it('asks in chat with buttons where chat is linked, and a button approves it', async () => {
    await stack.tdb.db('messaging_connections').insert({ teamId: stack.acme.team.id, phoneNumber: PHONE });
    const client = await connect(agentToken);
    try {
      const { actionId } = await propose(client, { transactionIds: ids.slice(4), category: 'travel' });
      const ask = await messaging.waitFor(
        (s) => s.to === PHONE && s.type === 'interactive' && s.body.interactive.body.text.includes('Approve'),
      );
      const buttons = ask.body.interactive.action.buttons.map((b: UntypedJson) => b.reply.id);
      expect(buttons).toEqual([`agent-approve:${actionId}`, `agent-decline:${actionId}`]);
      const signed = signedDelivery(APP_SECRET, [
        {
          from: PHONE,
          id: 'wamid.agent1',
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: buttons[0], title: 'Approve' } },
        },
      ]);
      const res = await stack.api.fetch('/webhook/messaging', { method: 'POST', headers: signed.headers, body: signed.raw });
      expect(res.status).toBe(200);
      await messaging.waitFor((s) => s.to === PHONE && s.type === 'text' && s.body.text.body.startsWith('Approved and applied'));
      expect(
        await stack.tdb
          .db('transactions')
          .whereIn('id', ids.slice(4))
          .select('categorySlug')
          .then((r: { categorySlug: string | null }[]) => r.map((x) => x.categorySlug)),
      ).toEqual(['travel', 'travel', 'travel']);
      expect(await stack.tdb.db('agent_actions').where({ id: actionId }).first()).toMatchObject({ status: 'applied', decidedVia: 'chat' });
    } finally {
      await client.close();
    }
  });
  it('gives the chat assistant the same write tools: what the model asks becomes an action the person approves', async () => {
    const KEY = 'sk-agent-actions-test';
    const llm = (started.llm = await startLlmChatFake(KEY, (req) => {
      const messages = req.body.messages as UntypedJson[];
      const tool = messages.filter((m) => m.role === 'tool').at(-1);
      if (!tool)
        return { toolCalls: [{ name: 'categorize_transactions', arguments: { transactionIds: ids.slice(0, 2), category: 'software' } }] };
      const { ref, result } = JSON.parse(tool.content);
      return { text: `I proposed it [${ref}]: ${result.status} ${result.actionId}` };
    }));
    const withModel = (started.withModel = await startTestApi(stack.tdb.db, {
      env: { ...stack.env, LLM_API_URL: llm.url, LLM_API_KEY: KEY, LLM_MODEL: 'fake-gpt' },
    }));
    await stack.tdb.db('transactions').whereIn('id', ids.slice(0, 2)).update({ categorySlug: null });
    const events = await chatEvents(withModel, owner(), { message: 'Categorise the first two as software' });
    const result = events.find((e) => e.event === 'tool_result')!.data;
    expect(result).toMatchObject({
      name: 'categorize_transactions',
      error: null,
      result: { status: 'pending_approval', preview: { count: 2 } },
    });
    const actionId: string = result.result.actionId;
    expect(await stack.tdb.db('transactions').whereIn('id', ids.slice(0, 2)).whereNotNull('categorySlug')).toEqual([]);
    const action = await statusAndBody(await stack.api.fetch(`/agent-actions/${actionId}`, { token: owner() }));
    expect(action.body.data).toMatchObject({
      via: 'chat',
      tool: 'categorize_transactions',
      proposedBy: { kind: 'session', clientId: null },
    });
    // Asked in a person's own chat, the person approves it.
    const approved = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner()));
    expect(approved).toMatchObject({ status: 200, body: { data: { result: { matched: 2, changed: 2 } } } });
  });
  it('creates and sends an invoice through approvals: the draft, then its sending, each applied by the invoice operations', async () => {
    const teamId = stack.acme.team.id;
    const [customer] = await stack.tdb.db('customers').insert({ teamId, name: 'Kunde GmbH', email: 'ap@kunde.example' }).returning('id');
    const key = await insertApiKey(stack.tdb.db, { teamId, userId: stack.acme.user.id }, ['invoices.write']);
    const client = await connect(key);
    try {
      const draft = await propose(
        client,
        { customerId: customer.id, currency: 'EUR', lineItems: [{ name: 'Consulting', quantity: 2, price: 150 }] },
        'create_invoice',
      );
      expect(draft).toMatchObject({
        status: 'pending_approval',
        preview: { count: 1, summary: 'create a draft invoice in EUR with 1 line' },
      });
      expect(await stack.tdb.db('invoices').where({ teamId, customerId: customer.id })).toEqual([]);
      const created = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${draft.actionId}/approve`, owner()));
      expect(created.body.data.result).toMatchObject({ status: 'draft', amount: 300, customer: { id: customer.id } });
      const invoiceId: string = created.body.data.result.id;

      const send = await propose(client, { invoiceId }, 'send_invoice');
      expect(send).toMatchObject({
        status: 'pending_approval',
        preview: { count: 1, sample: [{ id: invoiceId, before: { status: 'draft' }, after: { status: 'unpaid', emailed: true } }] },
      });
      expect(await stack.tdb.db('invoices').where({ id: invoiceId }).first()).toMatchObject({ status: 'draft' });
      const sent = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${send.actionId}/approve`, owner()));
      expect(sent.status).toBe(200);
      expect(sent.body.data.result).toMatchObject({ id: invoiceId, status: 'unpaid', invoiceNumber: expect.any(String) });
    } finally {
      await client.close();
    }
  });
});

describe('agent actions on the inbox', () => {
  let inboxAgent: string;
  let figma: string;
  beforeAll(async () => {
    inboxAgent = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, [
      'inbox.read',
      'inbox.write',
    ]);
    figma = ids[0];
  });

  const newItem = async (reference: string, status: 'pending' | 'suggested_match') =>
    (
      await stack.tdb
        .db('inbox_items')
        .insert({ teamId: stack.acme.team.id, source: 'upload', reference, status, displayName: `Receipt ${reference}` })
        .returning('id')
    )[0].id as string;
  const item = (id: string) => stack.tdb.db('inbox_items').where({ id }).first<{ status: string; transactionId: string | null }>();
  const suggestions = (inboxItemId: string) =>
    stack.tdb.db('match_suggestions').where({ inboxItemId }).select<{ transactionId: string; status: string }[]>('transactionId', 'status');
  const matchedEvents = async (inboxItemId: string) =>
    (
      await stack.tdb.db('events').where({ teamId: stack.acme.team.id, type: 'inbox.matched' }).select<{ payload: string }[]>('payload')
    ).filter((e) => JSON.parse(e.payload).data.inboxItemId === inboxItemId).length;
  const stageOf = (actionId: string) => queryAgentActionStage(stack.api.deps.temporal, actionId).then((s) => s.stage);

  it('match_inbox_item waits for approval; approved over REST, the item is matched exactly once', async () => {
    const inboxItemId = await newItem('agent-match', 'pending');
    const client = await connect(inboxAgent);
    let proposal: UntypedJson;
    try {
      proposal = await propose(client, { inboxItemId, transactionId: figma }, 'match_inbox_item');
    } finally {
      await client.close();
    }
    expect(proposal).toMatchObject({
      status: 'pending_approval',
      preview: {
        count: 1,
        summary: 'attach "Receipt agent-match" to the transaction "Figma" of 2026-10-01',
        sample: [{ id: inboxItemId, before: { status: 'pending', transactionId: null }, after: { status: 'done', transactionId: figma } }],
      },
    });
    const actionId: string = proposal.actionId;
    await eventually(async () => (await stageOf(actionId)) === 'awaiting_approval', 30_000, 'waiting');
    // Waiting: nothing is matched yet.
    expect(await item(inboxItemId)).toMatchObject({ status: 'pending', transactionId: null });
    expect(await suggestions(inboxItemId)).toEqual([]);
    expect(await matchedEvents(inboxItemId)).toBe(0);

    const approved = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner()));
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      result: { id: inboxItemId, status: 'done' },
      action: { id: actionId, status: 'applied', operation: 'inbox.matchTransaction', tool: 'match_inbox_item' },
    });
    expect(await item(inboxItemId)).toMatchObject({ status: 'done', transactionId: figma });
    expect(await suggestions(inboxItemId)).toEqual([{ transactionId: figma, status: 'confirmed' }]);
    expect(await matchedEvents(inboxItemId)).toBe(1);

    // Approving again is refused and matches nothing a second time.
    const again = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner()));
    expect(again.status).toBe(409);
    expect(await matchedEvents(inboxItemId)).toBe(1);
    expect(await suggestions(inboxItemId)).toEqual([{ transactionId: figma, status: 'confirmed' }]);
    expect(await stack.worker.client.workflow.getHandle(agentActionWorkflowId(actionId)).result()).toEqual({ stage: 'applied' });
  });

  it('decline_inbox_match waits for approval; approved, the suggestion is declined and the item waits again', async () => {
    const inboxItemId = await newItem('agent-decline', 'suggested_match');
    await stack.tdb
      .db('match_suggestions')
      .insert({ teamId: stack.acme.team.id, inboxItemId, transactionId: figma, matchType: 'suggested', confidence: 0.8 });
    const client = await connect(inboxAgent);
    let proposal: UntypedJson;
    try {
      proposal = await propose(client, { inboxItemId, transactionId: figma }, 'decline_inbox_match');
    } finally {
      await client.close();
    }
    expect(proposal).toMatchObject({
      status: 'pending_approval',
      preview: { count: 1, summary: 'decline the suggestion that "Receipt agent-decline" belongs to the transaction "Figma"' },
    });
    const actionId: string = proposal.actionId;
    await eventually(async () => (await stageOf(actionId)) === 'awaiting_approval', 30_000, 'waiting');
    expect(await suggestions(inboxItemId)).toEqual([{ transactionId: figma, status: 'pending' }]);

    const approved = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner()));
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      result: { outcome: 'declined' },
      action: { id: actionId, status: 'applied', operation: 'inbox.declineMatch' },
    });
    expect(await suggestions(inboxItemId)).toEqual([{ transactionId: figma, status: 'declined' }]);
    expect(await item(inboxItemId)).toMatchObject({ status: 'pending', transactionId: null });
    expect(await matchedEvents(inboxItemId)).toBe(0);
    expect((await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner())).status).toBe(409);
  });

  it('a match the user declines applies nothing', async () => {
    const inboxItemId = await newItem('agent-refused', 'suggested_match');
    await stack.tdb
      .db('match_suggestions')
      .insert({ teamId: stack.acme.team.id, inboxItemId, transactionId: figma, matchType: 'suggested', confidence: 0.7 });
    const client = await connect(inboxAgent);
    let actionId: string;
    try {
      ({ actionId } = await propose(client, { inboxItemId, transactionId: figma }, 'match_inbox_item'));
    } finally {
      await client.close();
    }
    const declined = await statusAndBody(await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/decline`, owner()));
    expect(declined.status).toBe(200);
    expect(declined.body.data).toMatchObject({ id: actionId, status: 'declined', decision: { via: 'api', userId: stack.acme.user.id } });
    expect(await stack.worker.client.workflow.getHandle(agentActionWorkflowId(actionId)).result()).toEqual({ stage: 'declined' });
    expect((await sendJson(stack.api, 'POST', `/agent-actions/${actionId}/approve`, owner())).status).toBe(409);
    expect(await item(inboxItemId)).toMatchObject({ status: 'suggested_match', transactionId: null });
    expect(await suggestions(inboxItemId)).toEqual([{ transactionId: figma, status: 'pending' }]);
    expect(await matchedEvents(inboxItemId)).toBe(0);
  });
});
