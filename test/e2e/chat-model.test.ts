import { Writable } from 'node:stream';
import pino from 'pino';
import { startLlmChatFake, type FakeChatRequest, type FakeTurn } from '../fakes/llm-chat';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { chatEvents, streamedText } from '../support/sse';
import type { UntypedJson } from '../support/untyped-json';

const KEY = 'sk-test-model-key-never-shown';
const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const now = new Date();
const [Y, M] = [now.getUTCFullYear(), now.getUTCMonth()];
const lastMonth = { from: day(Y, M - 1, 1), to: day(Y, M, 0) };

/** The "model": asked about spending it calls the spending tool (offered or not); given a tool result it writes the answer citing it. */
function model(req: FakeChatRequest): FakeTurn {
  const messages = req.body.messages as UntypedJson[];
  const toolMessage = messages.filter((m) => m.role === 'tool').at(-1);
  if (!toolMessage) {
    const question = String(messages.at(-1).content);
    if (question.includes('spend')) return { toolCalls: [{ name: 'spending', arguments: { ...lastMonth, category: 'software' } }] };
    return { text: 'I can help with your finances.' };
  }
  const { ref, result, error } = JSON.parse(toolMessage.content);
  if (error) return { text: `I could not look that up: ${error}` };
  return { text: `You spent ${result.matched[0].amount.toFixed(2)} ${result.currency} on software last month [${ref}].` };
}

let api: TestApi;
let llm: Awaited<ReturnType<typeof startLlmChatFake>>;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
const logLines: string[] = [];

const tdb = withTestDatabase({
  setUp: async () => {
    llm = await startLlmChatFake(KEY, model);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    api = await startTestApi(tdb.db, {
      env: { LLM_API_URL: llm.url, LLM_API_KEY: KEY, LLM_MODEL: 'fake-gpt' },
      deps: { logger: pino({ level: 'info' }, sink) },
    });
    acme = await createTeamAndOwner(tdb.db, 'Acme');
    await tdb.db('teams').where({ id: acme.team.id }).update({ baseCurrency: 'EUR' });
    await tdb.db('transaction_categories').insert({ teamId: acme.team.id, name: 'Software', slug: 'software' });
    await tdb.db('transactions').insert([
      { teamId: acme.team.id, date: day(Y, M - 1, 3), name: 'Figma', amount: -45, currency: 'EUR', categorySlug: 'software' },
      { teamId: acme.team.id, date: day(Y, M - 1, 9), name: 'Linear', amount: -8.5, currency: 'EUR', categorySlug: 'software' },
    ]);
  },
  tearDown: async () => {
    await api.stop();
    await llm.close();
  },
});

describe('POST /chat with a model (an OpenAI-compatible server that streams and calls tools)', () => {
  it("runs the tool the model asks for with the caller's scopes, and streams tokens, the call, its result and the cited answer as SSE", async () => {
    const question = 'How much did we spend on software last month?';
    const events = await chatEvents(api, acme.sessionToken, { message: question });
    expect(events.map((e) => e.event).filter((e) => e !== 'token')).toEqual(['conversation', 'tool_call', 'tool_result', 'message']);
    expect(events.filter((e) => e.event === 'token').length).toBeGreaterThan(3);
    expect(events.find((e) => e.event === 'tool_call')!.data).toEqual({
      id: 'call_fake_0',
      ref: 1,
      name: 'spending',
      arguments: { ...lastMonth, category: 'software' },
    });
    const result = events.find((e) => e.event === 'tool_result')!.data;
    expect(result).toMatchObject({ error: null, result: { total: 53.5, matched: [{ slug: 'software', amount: 53.5 }] } });

    const answer = events.at(-1)!.data;
    expect(answer.content).toBe('You spent 53.50 EUR on software last month [1].');
    expect(streamedText(events)).toBe(answer.content);
    expect(answer.citations).toEqual([{ ref: 1, toolCallId: 'call_fake_0', tool: 'spending' }]);

    // The model got the caller's tools, with JSON Schemas, and the tool result tagged with its ref.
    const [first, second] = llm.requests.slice(-2);
    expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first.body).toMatchObject({ model: 'fake-gpt', stream: true });
    const offered = (first.body.tools as UntypedJson[]).map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['spending', 'revenue', 'runway', 'unpaid_invoices', 'transactions_search']));
    expect(first.body.tools[0].function.parameters).toMatchObject({ type: 'object' });
    expect(first.body.messages[0].content).toContain(`Today is ${now.toISOString().slice(0, 10)}`);
    expect(JSON.parse(second.body.messages.at(-1).content)).toMatchObject({ ref: 1, result: { total: 53.5 } });
  });

  it('offers a token only the tools its scopes allow, and refuses a tool it was not offered even when the model asks for it', async () => {
    const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['chat.write', 'invoices.read']);
    const events = await chatEvents(api, key, { message: 'How much did we spend on software last month?' });
    const offered = (llm.requests.at(-2)!.body.tools as UntypedJson[]).map((t) => t.function.name);
    expect(offered).toEqual(['unpaid_invoices']);
    expect(events.find((e) => e.event === 'tool_result')!.data).toMatchObject({
      name: 'spending',
      result: null,
      error: 'No tool spending is available to this caller',
    });
    const answer = events.at(-1)!.data;
    expect(answer.content).toBe('I could not look that up: No tool spending is available to this caller');
    expect(answer.content).not.toContain('53');
    expect(answer.citations).toEqual([]);
  });

  it('keeps the model key, the questions and the tool results out of the stream and the logs', async () => {
    const res = await api.fetch('/chat', {
      method: 'POST',
      token: acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How much did we spend on software last month?' }),
    });
    const raw = await res.text();
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(raw).toContain('event: message');
    expect(raw).not.toContain(KEY);
    // A request's duration may happen to read 53.5 ms: the figure must not appear anywhere else.
    const logs = logLines.join('').replace(/"ms":[\d.]+/g, '"ms":_');
    expect(logs).toContain('"path":"/chat"');
    for (const secret of [KEY, 'spend on software', '53.5', 'Figma']) expect(logs).not.toContain(secret);
  });

  it('answers offline when the model fails before it says anything', async () => {
    llm.fail(1);
    const events = await chatEvents(api, acme.sessionToken, { message: 'How much did we spend on software last month?' });
    expect(events.at(-1)!.data.content).toBe(`You spent 53.50 EUR on Software from ${lastMonth.from} to ${lastMonth.to} [1].`);
    expect(logLines.join('')).toContain('chat model failed; answering offline');
  });
});
