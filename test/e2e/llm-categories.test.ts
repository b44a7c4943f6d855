import { startBankBFake } from '../fakes/bank-b';
import { rawContent, startLlmFake } from '../fakes/llm';
import type { FakeRequest } from '../fakes/http-fake';
import { startTestApi, statusAndBody, sendJson, testConfig, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { eventuallyValue } from '../support/eventually';
import type { UntypedJson } from '../support/untyped-json';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from '../support/worker';
import { createActivityDeps } from '../../activities';
import { proposalDeps, proposeAgentAction } from '../../shared/domain/agent-actions/service';
import { loadModel } from '../../shared/domain/learned-categories/apply';
import { categoriseWithLlm, requestLlmCategoriesAfterArrival, type CategoryLlm } from '../../shared/domain/learned-categories/llm';
import { createLlmClient, LlmError } from '../../shared/providers/llm';
import type { TemporalGateway } from '../../shared/temporal/client';
import { llmCategoriesId, type LlmCategoriesWorkflow } from '../../shared/temporal/llm-categories/contract';
import { syncConnectionId, type SyncConnectionWorkflow } from '../../shared/temporal/sync-connection/contract';
import { importTransactionsId, type ImportTransactionsWorkflow } from '../../shared/temporal/import-transactions/contract';
import { OFX_STATEMENT } from '../fixtures/statements';

/**
 * Categories from the language model end to end: what nothing else categorises (no rule, nothing
 * learned, no bank category) after a sync or a create is asked of the model, outside the inserting
 * transaction, in one request per batch; its choice is applied at or above the team's threshold
 * (`categorySource.by` `llm`, the explanation naming the model), suggested below it. An answer that
 * names an unknown slug, a transaction not asked, or is no JSON changes nothing; an outage leaves the
 * rows waiting; a user's choice, before or meanwhile, stands; the learner never learns from the model.
 */
const KEY = 'sk-llm-categories';
const MODEL = 'fake-gpt';

/** merchant → [slug, confidence, reason]: what the "model" answers about each transaction, unless a test says otherwise. */
const choices = new Map<string, [string | null, number, string]>([
  ['Obscure SaaS Ltd', ['software', 0.95, 'a software subscription']],
  ['Mystery Bistro', ['meals', 0.5, 'sounds like a restaurant']],
  ['Zebra Consulting', ['consulting', 0.9, 'professional services']],
  ['Office Supplies GmbH', ['office-supplies', 0.92, 'the name says so']],
]);
let override: ((asked: AskedTransaction[]) => unknown) | undefined;

interface AskedTransaction {
  id: string;
  name: string;
  merchant: string | null;
  description: string | null;
  amount: number;
  currency: string;
}
/** The transactions a request asked about, read back from its prompt. */
const askedIn = (req: FakeRequest | { body: UntypedJson }): AskedTransaction[] => {
  const text: string = req.body.messages[1].content[0].text;
  return JSON.parse(text.slice(text.lastIndexOf('\n') + 1));
};
const answer = (req: FakeRequest) => {
  const asked = askedIn(req);
  if (override) return override(asked);
  return {
    categories: asked.map((t) => {
      const [category, confidence, reason] = choices.get(t.merchant ?? t.name) ?? [null, 0, 'no idea'];
      return { id: t.id, category, confidence, reason };
    }),
  };
};

let llm: Awaited<ReturnType<typeof startLlmFake>>;
let bankB: Awaited<ReturnType<typeof startBankBFake>>;
let api: TestApi;
let worker: TestWorker;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
let other: Awaited<ReturnType<typeof createTeamAndOwner>>;
const started: { api?: TestApi; worker?: TestWorker; llm?: typeof llm; bankB?: typeof bankB } = {};

const tdb = withTestDatabase({
  setUp: async () => {
    llm = started.llm = await startLlmFake(KEY, answer);
    bankB = started.bankB = await startBankBFake();
    const env = {
      BANK_B_API_URL: bankB.url,
      LLM_API_URL: llm.url,
      LLM_API_KEY: KEY,
      LLM_MODEL: MODEL,
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue('llm-categories'),
    };
    api = started.api = await startTestApi(tdb.db, { env });
    worker = started.worker = await startTestWorker(testConfig(env), tdb.db);
    acme = await createTeamAndOwner(tdb.db, 'Acme');
    other = await createTeamAndOwner(tdb.db, 'Other');
    for (const teamId of [acme.team.id, other.team.id]) {
      await tdb.db('transaction_categories').insert(
        [
          ['software', 'Software'],
          ['meals', 'Meals and entertainment'],
          ['consulting', 'Consulting'],
          ['travel', 'Travel'],
          ['office-supplies', 'Office supplies'],
        ].map(([slug, name]) => ({ teamId, slug, name })),
      );
    }
  },
  tearDown: async () => {
    await started.worker?.stop();
    await started.api?.stop();
    await started.llm?.close();
    await started.bankB?.close();
  },
});

const call = (method: string, path: string, body?: unknown) => sendJson(api, method, path, acme.sessionToken, body).then(statusAndBody);
const read = async (id: string) => (await call('GET', `/transactions/${id}`)).body.data;
const categoryLlm = (): CategoryLlm => ({ client: createLlmClient({ baseUrl: llm.url, apiKey: KEY, model: MODEL }), model: MODEL });
const llmCalls = () => llm.calls.filter((c) => c.path === '/v1/chat/completions');

/** Manual transactions straight into the table, as an insert that nothing categorised leaves them. */
async function insertRows(teamId: string, names: string[]): Promise<string[]> {
  const rows = await tdb
    .db('transactions')
    .insert(names.map((name) => ({ teamId, name, amount: -12.5, currency: 'EUR', date: '2026-11-20', manual: true })))
    .returning<{ id: string }[]>('id');
  return rows.map((r) => r.id);
}

/** The team's LlmCategories run, once it has ended (one exists: a create or sync requested it). */
const settled = () =>
  eventuallyValue(
    () =>
      worker.client.workflow
        .getHandle<LlmCategoriesWorkflow>(llmCategoriesId(acme.team.id))
        .result()
        .catch(() => undefined),
    30_000,
    'the LlmCategories run',
  );

afterEach(() => {
  override = undefined;
});

describe('categories from the language model', () => {
  it('categorises what a bank sync left uncategorised, in one request, outside the sync', async () => {
    const e = bankB.addEnrollment();
    bankB.addTransactions(e, 3);
    const named = ['Obscure SaaS Ltd', 'Mystery Bistro', 'Nobody Knows Inc'];
    e.transactions.forEach((t, i) => {
      t.details = { counterparty: { name: named[i] } };
      t.description = `CARD ${named[i].toUpperCase()}`;
    });
    const callsBefore = llmCalls().length;
    const created = await call('POST', '/bank-connections', {
      provider: 'bank-b',
      accessToken: e.accessToken,
      enrollmentId: e.enrollmentId,
    });
    expect(created.status).toBe(201);
    await worker.client.workflow.getHandle<SyncConnectionWorkflow>(syncConnectionId(created.body.data.id)).result();
    const result = await settled();
    expect(result).toEqual({ asked: 3, applied: 1, suggested: 1, failed: false });

    // One request for the three, with the team's categories and each transaction's merchant, text and amount.
    const requests = llmCalls().slice(callsBefore);
    expect(requests).toHaveLength(1);
    const req = requests[0];
    expect(req.body.model).toBe(MODEL);
    expect(req.body.response_format.type).toBe('json_schema');
    const prompt: string = req.body.messages[1].content[0].text;
    for (const slug of [
      'software: Software',
      'meals: Meals and entertainment',
      'consulting: Consulting',
      'travel: Travel',
      'office-supplies: Office supplies',
    ])
      expect(prompt).toContain(slug);
    const asked = askedIn(req);
    expect(asked.map((t) => t.merchant).sort()).toEqual([...named].sort());
    expect(asked.find((t) => t.merchant === 'Obscure SaaS Ltd')).toMatchObject({ description: 'CARD OBSCURE SAAS LTD', currency: 'USD' });

    const rows = await tdb.db('transactions').where({ teamId: acme.team.id }).whereIn('name', named).select('id', 'name');
    const idOf = (name: string) => rows.find((r) => r.name === name)!.id;
    const saas = await read(idOf('Obscure SaaS Ltd'));
    expect(saas).toMatchObject({
      category: { slug: 'software' },
      categorySource: {
        by: 'llm',
        confidence: 0.95,
        explanation: `Suggested by the language model ${MODEL}: a software subscription, confidence 0.95`,
      },
      suggestedCategory: null,
    });
    // Below the team's threshold (0.85): only suggested.
    expect(await read(idOf('Mystery Bistro'))).toMatchObject({
      category: null,
      categorySource: null,
      suggestedCategory: { slug: 'meals', name: 'Meals and entertainment', confidence: 0.5, neighbours: [] },
    });
    expect(await read(idOf('Nobody Knows Inc'))).toMatchObject({ category: null, suggestedCategory: null });
    // Listed by its source, and announced as an update.
    const listed = (await call('GET', '/transactions?categorizedBy=llm')).body.data;
    expect(listed.map((t: { id: string }) => t.id)).toEqual([saas.id]);
    const events = await tdb.db('events').where({ teamId: acme.team.id, type: 'transaction.updated' }).select('payload');
    expect(events.some((ev) => JSON.stringify(ev.payload).includes(saas.id))).toBe(true);
  });

  it('categorises a transaction created through the API, and a user’s later choice wins', async () => {
    const created = await call('POST', '/transactions', { name: 'Zebra Consulting', amount: -400, currency: 'EUR', date: '2026-11-21' });
    expect(created.status).toBe(201);
    expect(created.body.data.category).toBeNull();
    const t = await eventuallyValue(async () => {
      const x = await read(created.body.data.id);
      return x.category ? x : undefined;
    }, 30_000);
    await settled();
    expect(t).toMatchObject({
      category: { slug: 'consulting' },
      categorySource: { by: 'llm', explanation: `Suggested by the language model ${MODEL}: professional services, confidence 0.90` },
    });
    const patched = await call('PATCH', `/transactions/${t.id}`, { categorySlug: 'travel' });
    expect(patched.status).toBe(200);
    // Another pass changes nothing of it.
    await categoriseWithLlm(tdb.db, categoryLlm(), acme.team.id);
    expect(await read(t.id)).toMatchObject({ category: { slug: 'travel' }, categorySource: { by: 'user' } });
  });

  it('categorises a transaction an agent created, once a person approved it', async () => {
    const { temporal, config, logger } = api.deps;
    const proposal = await proposeAgentAction(
      { db: tdb.db, ...proposalDeps(temporal, config, logger) },
      { principal: { kind: 'session', userId: acme.user.id, teamId: acme.team.id, scopes: ['transactions.write'] }, via: 'mcp' },
      {
        tool: 'create_transaction',
        operation: 'transactions.create',
        input: { name: 'Office Supplies GmbH', amount: -60, currency: 'EUR', date: '2026-11-22' },
      },
    );
    expect(proposal.status).toBe('pending_approval');
    const approved = await call('POST', `/agent-actions/${proposal.actionId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data.result.category).toBeNull();
    // The worker that applied it asked the model, as the API does after a person's create.
    const t = await eventuallyValue(async () => {
      const x = await read(approved.body.data.result.id);
      return x.category ? x : undefined;
    }, 30_000);
    await settled();
    expect(t).toMatchObject({ category: { slug: 'office-supplies' }, categorySource: { by: 'llm' } });
  });

  it('categorises what an import left uncategorised', async () => {
    const [account] = await tdb
      .db('bank_accounts')
      .insert({ teamId: acme.team.id, name: 'Imported', currency: 'EUR', manual: true })
      .returning<{ id: string }[]>('id');
    const form = new FormData();
    form.append('bankAccountId', account.id);
    form.append('file', new Blob([OFX_STATEMENT]), 'statement.ofx');
    const res = await api.fetch('/transactions/import', { method: 'POST', token: acme.sessionToken, body: form });
    expect(res.status).toBe(202);
    const imp = (await res.json()).data;
    await worker.client.workflow.getHandle<ImportTransactionsWorkflow>(importTransactionsId(imp.id)).result();
    const supplies = await eventuallyValue(async () => {
      const row = await tdb.db('transactions').where({ bankAccountId: account.id, name: 'Office Supplies GmbH' }).first();
      return row?.categorySlug ? row : undefined;
    }, 30_000);
    await settled();
    expect(supplies).toMatchObject({ categorySlug: 'office-supplies', fieldSources: { categorySlug: { by: 'llm', confidence: 0.92 } } });
    // What the model did not know stays as it was.
    const fee = await tdb.db('transactions').where({ bankAccountId: account.id, name: 'Account fee' }).first();
    expect(fee).toMatchObject({ categorySlug: null, suggestedCategory: null, awaitsLlmCategory: false });
  });

  it('never learns from what the model chose', async () => {
    const model = await loadModel(tdb.db, acme.team.id);
    expect(model.suggest({ text: 'Obscure SaaS Ltd', accountId: null, amount: -3.75 })).toBeNull();
    const again = await call('POST', '/transactions', { name: 'Obscure SaaS Ltd', amount: -3.75, currency: 'USD', date: '2026-11-22' });
    expect(again.body.data).toMatchObject({ category: null, suggestedCategory: null });
    // The model is asked instead, and answers as before.
    const asked = await eventuallyValue(async () => {
      const x = await read(again.body.data.id);
      return x.category ? x : undefined;
    }, 30_000);
    expect(asked).toMatchObject({ category: { slug: 'software' }, categorySource: { by: 'llm' } });
    await settled();
  });

  it('ignores an answer that names an unknown slug, a transaction not asked, or twice the same one', async () => {
    const [a, b, c] = await insertRows(acme.team.id, ['Hostile One', 'Hostile Two', 'Hostile Three']);
    const [foreign] = await insertRows(other.team.id, ['Other team row']);
    const [notAsked] = await insertRows(acme.team.id, ['Already handled']);
    await tdb.db('transactions').where({ id: notAsked }).update({ awaitsLlmCategory: false });
    override = () => ({
      categories: [
        { id: a, category: 'gambling', confidence: 1, reason: 'no such slug' },
        { id: b, category: 'software', confidence: 1, reason: 'first' },
        { id: b, category: 'travel', confidence: 1, reason: 'second' },
        { id: foreign, category: 'software', confidence: 1, reason: 'another team' },
        { id: notAsked, category: 'software', confidence: 1, reason: 'not asked' },
        { id: c, category: 'software', confidence: 7, reason: 'out of range' },
        { id: c, category: { slug: 'software' }, confidence: 1 },
      ],
    });
    const result = await categoriseWithLlm(tdb.db, categoryLlm(), acme.team.id);
    expect(result).toMatchObject({ asked: 3, applied: 0, suggested: 0 });
    const rows = await tdb.db('transactions').whereIn('id', [a, b, c, foreign, notAsked]);
    for (const r of rows) expect(r).toMatchObject({ categorySlug: null, suggestedCategory: null, fieldSources: {} });
    // Asked once: the same answer is not bought again.
    expect(rows.filter((r) => r.teamId === acme.team.id).every((r) => r.awaitsLlmCategory === false)).toBe(true);
    expect(rows.find((r) => r.id === foreign).awaitsLlmCategory).toBe(true);
  });

  it('compares the confidence the model stated with the threshold, not the rounded one it shows', async () => {
    const [id] = await insertRows(acme.team.id, ['Borderline Ltd']);
    override = (asked) => ({ categories: asked.map((t) => ({ id: t.id, category: 'software', confidence: 0.849, reason: 'perhaps' })) });
    expect(await categoriseWithLlm(tdb.db, categoryLlm(), acme.team.id)).toMatchObject({ asked: 1, applied: 0, suggested: 1 });
    expect(await read(id)).toMatchObject({
      category: null,
      suggestedCategory: {
        slug: 'software',
        confidence: 0.85,
        explanation: `Suggested by the language model ${MODEL}: perhaps, confidence 0.85`,
      },
    });
  });

  it('ignores an answer that is not JSON, or not of the asked shape', async () => {
    for (const broken of [rawContent('Sure! {"categories": [oops'), { choices: 'software' }, ['software']]) {
      const [id] = await insertRows(acme.team.id, ['Broken Answer Ltd']);
      override = () => broken;
      const result = await categoriseWithLlm(tdb.db, categoryLlm(), acme.team.id);
      expect(result).toMatchObject({ asked: 1, applied: 0, suggested: 0 });
      expect(await tdb.db('transactions').where({ id }).first()).toMatchObject({ categorySlug: null, suggestedCategory: null });
    }
  });

  it('leaves the rows waiting when the model is down, and categorises them once it answers', async () => {
    const [id] = await insertRows(acme.team.id, ['Obscure SaaS Ltd']);
    llm.fail('/v1/chat/completions', 503, { error: { message: 'The server is overloaded' } });
    await expect(categoriseWithLlm(tdb.db, categoryLlm(), acme.team.id)).rejects.toThrow(LlmError);
    expect(await tdb.db('transactions').where({ id }).first()).toMatchObject({ categorySlug: null, awaitsLlmCategory: true });
    await categoriseWithLlm(tdb.db, categoryLlm(), acme.team.id);
    expect(await tdb.db('transactions').where({ id }).first()).toMatchObject({ categorySlug: 'software', awaitsLlmCategory: false });
  });

  it('does not overwrite what a user chose while the model was thinking: a category, or none', async () => {
    const [chosen, cleared] = await insertRows(acme.team.id, ['Obscure SaaS Ltd', 'Obscure SaaS Ltd']);
    const real = categoryLlm();
    const slow: CategoryLlm = {
      model: MODEL,
      client: {
        completeJson: async (req) => {
          expect((await call('PATCH', `/transactions/${chosen}`, { categorySlug: 'travel' })).status).toBe(200);
          expect((await call('PATCH', `/transactions/${cleared}`, { categorySlug: null })).status).toBe(200);
          return real.client.completeJson(req);
        },
      },
    };
    expect(await categoriseWithLlm(tdb.db, slow, acme.team.id)).toMatchObject({ asked: 2, applied: 0 });
    expect(await read(chosen)).toMatchObject({ category: { slug: 'travel' }, categorySource: { by: 'user' } });
    expect(await read(cleared)).toMatchObject({ category: null, suggestedCategory: null });
  });

  it('asks nothing and starts nothing without a model configured', async () => {
    const deps = createActivityDeps(testConfig({ LLM_API_URL: '' }), tdb.db);
    try {
      expect(deps.categoryLlm).toBeUndefined();
    } finally {
      await deps.temporal.close();
      deps.mailer.close();
      await deps.receipts.close();
    }
    let started = 0;
    const temporal = {
      client: () => {
        started++;
        return Promise.reject(new Error('not to be called'));
      },
    } as unknown as TemporalGateway;
    const errors: unknown[] = [];
    await requestLlmCategoriesAfterArrival({ config: { LLM_API_URL: undefined }, temporal }, acme.team.id, (err) => errors.push(err));
    expect({ started, errors }).toEqual({ started: 0, errors: [] });
    // With one configured, the request goes to Temporal; a failure there is reported, not thrown.
    await requestLlmCategoriesAfterArrival({ config: { LLM_API_URL: llm.url }, temporal }, acme.team.id, (err) => errors.push(err));
    expect(started).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
