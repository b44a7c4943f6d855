import { workflowMetadataQuery } from '@temporalio/workflow';
import { Stage, TeamId } from '../../shared/temporal/search-attribute-keys';
import { applyRulesId, applyRulesProgress, type ApplyRulesWorkflow } from '../../shared/temporal/apply-rules/contract';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { sendJson, statusAndBody } from '../support/api';
import { eventually } from '../support/eventually';
import { createTeamAndOwner, insertApiKey, insertTransactions } from '../support/fixtures';
import { importStatement, withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

/**
 * Transaction rules end to end: both doors, the rules on every way a transaction arrives (manual
 * create, statement import, bank sync), a user's edit that no rule overrides, and ApplyRules runs on
 * a real worker (dry and real, progress, two at once).
 */
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});
const stack = withStack('rules', () => ({ BANK_A_API_URL: bankA.url }));

let other: Awaited<ReturnType<typeof createTeamAndOwner>>;
const ids = {} as {
  coffee: string;
  software: string;
  otherCategory: string;
  tag: string;
  otherTag: string;
  account: string;
  otherAccount: string;
};

const call = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);
const db = () => stack.tdb.db;
const teamId = () => stack.acme.team.id;

const category = async (team: string, name: string, slug: string) =>
  (await db()('transaction_categories').insert({ teamId: team, name, slug }).returning<{ id: string; slug: string }[]>('*'))[0].slug;
const tag = async (team: string, name: string) =>
  (await db()('tags').insert({ teamId: team, name }).returning<{ id: string }[]>('id'))[0].id;
const account = async (team: string, name: string) =>
  (await db()('bank_accounts').insert({ teamId: team, name, currency: 'EUR', manual: true }).returning<{ id: string }[]>('id'))[0].id;

const coffeeRule = () => ({
  name: 'Coffee shops',
  conditions: {
    any: [
      {
        all: [
          { field: 'name', operator: 'contains', value: 'coffee' },
          { field: 'amount', sign: 'expense', max: 50 },
        ],
      },
      { all: [{ field: 'counterparty', operator: 'regex', value: '^star(bucks)?\\b' }] },
    ],
  },
  actions: { categorySlug: ids.coffee, addTags: [ids.tag], note: 'caffeine' },
});

beforeAll(async () => {
  other = await createTeamAndOwner(db(), 'Other');
  ids.coffee = await category(teamId(), 'Coffee', 'coffee');
  ids.software = await category(teamId(), 'Software', 'software');
  ids.otherCategory = await category(other.team.id, 'Secret', 'secret');
  ids.tag = await tag(teamId(), 'Caffeine');
  ids.otherTag = await tag(other.team.id, 'Theirs');
  ids.account = await account(teamId(), 'Checking');
  ids.otherAccount = await account(other.team.id, 'Theirs');
});

afterEach(async () => {
  await db()('transaction_rules').where({ teamId: teamId() }).delete();
});

describe('transaction rules: the resource', () => {
  it('creates, lists, reads, updates and deletes through both doors, and another team sees none of it', async () => {
    const created = await call('POST', '/transaction-rules', coffeeRule());
    expect(created.status).toBe(201);
    const rule = created.body.data;
    expect(rule).toMatchObject({ name: 'Coffee shops', enabled: true, priority: 0, stopAfter: false, actions: coffeeRule().actions });
    // Defaults are filled in and shown.
    expect(rule.conditions.any[0].all[0]).toEqual({ field: 'name', operator: 'contains', value: 'coffee', caseSensitive: false });

    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    expect(await trpc.transactionRules.getById.query({ id: rule.id })).toMatchObject({ id: rule.id, name: 'Coffee shops' });
    const second = await trpc.transactionRules.create.mutate({ ...coffeeRule(), name: 'First', priority: -5 } as never);
    expect((await call('GET', '/transaction-rules')).body.data.map((r: { name: string }) => r.name)).toEqual(['First', 'Coffee shops']);
    const updated = await trpc.transactionRules.update.mutate({ id: rule.id, data: { enabled: false, stopAfter: true } });
    expect(updated).toMatchObject({ enabled: false, stopAfter: true, name: 'Coffee shops' });
    expect(await trpc.transactionRules.get.query()).toHaveLength(2);

    // The other team: nothing listed, 404 on the ids, through both doors.
    expect((await call('GET', '/transaction-rules', undefined, other.sessionToken)).body.data).toEqual([]);
    expect((await call('GET', `/transaction-rules/${rule.id}`, undefined, other.sessionToken)).status).toBe(404);
    expect((await call('PATCH', `/transaction-rules/${rule.id}`, { name: 'x' }, other.sessionToken)).status).toBe(404);
    expect((await trpcError(trpcAs(stack.api, other.sessionToken).transactionRules.delete.mutate({ id: rule.id }))).httpStatus).toBe(404);

    // Scopes: reading is not writing.
    const reader = await insertApiKey(db(), { teamId: teamId(), userId: stack.acme.user.id }, ['transactions.read']);
    expect((await call('GET', '/transaction-rules', undefined, reader)).status).toBe(200);
    expect((await call('POST', '/transaction-rules', coffeeRule(), reader)).status).toBe(403);
    expect((await call('POST', `/transaction-rules/${rule.id}/apply`, {}, reader)).status).toBe(403);

    expect((await call('DELETE', `/transaction-rules/${rule.id}`)).status).toBe(204);
    await trpc.transactionRules.delete.mutate({ id: second.id });
    expect((await call('GET', '/transaction-rules')).body.data).toEqual([]);
  });

  it('refuses bad and backtracking regexes and other teams references with a 400 naming the field, writing nothing', async () => {
    const withCondition = (condition: object) => ({ ...coffeeRule(), conditions: { any: [{ all: [condition] }] } });
    const refused = async (body: object) => {
      const res = await call('POST', '/transaction-rules', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', description: expect.any(String) });
      return res.body.details as { field: string; message: string }[];
    };
    for (const pattern of ['(a+)+$', '(\\w+\\s?)*$', '(a|aa)*b', '([a-z]+)*x']) {
      const details = await refused(withCondition({ field: 'name', operator: 'regex', value: pattern }));
      expect(details).toEqual([
        expect.objectContaining({ field: 'conditions.any.0.all.0.value', message: expect.stringMatching(/exponential/) }),
      ]);
    }
    expect(await refused(withCondition({ field: 'description', operator: 'regex', value: '(unclosed' }))).toEqual([
      expect.objectContaining({ field: 'conditions.any.0.all.0.value', message: expect.stringMatching(/not a valid regular expression/) }),
    ]);
    expect(await refused(withCondition({ field: 'name', operator: 'regex', value: '(a)\\1' }))).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/backreferences/) }),
    ]);
    expect((await refused(withCondition({ field: 'name', operator: 'regex', value: 'x'.repeat(201) })))[0].field).toBe(
      'conditions.any.0.all.0.value',
    );

    expect(await refused({ ...coffeeRule(), actions: { categorySlug: ids.otherCategory } })).toEqual([
      { field: 'actions.categorySlug', message: 'no such category in your team' },
    ]);
    expect((await refused({ ...coffeeRule(), actions: { addTags: [ids.otherTag] } }))[0].field).toBe('actions.addTags');
    expect((await refused({ ...coffeeRule(), actions: { assignedId: other.user.id } }))[0].field).toBe('actions.assignedId');
    expect((await refused(withCondition({ field: 'bankAccount', in: [ids.account, ids.otherAccount] })))[0]).toMatchObject({
      field: 'conditions.any.0.all.0.in',
      message: expect.stringContaining(ids.otherAccount),
    });
    expect((await refused({ ...coffeeRule(), actions: {} }))[0].field).toBe('actions');

    // tRPC says the same, and an update is checked as a create is.
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const err = await trpcError(
      trpc.transactionRules.create.mutate(withCondition({ field: 'name', operator: 'regex', value: '(a+)+' }) as never),
    );
    expect(err).toMatchObject({ httpStatus: 400, details: [expect.objectContaining({ field: 'conditions.any.0.all.0.value' })] });
    const rule = (await call('POST', '/transaction-rules', coffeeRule())).body.data;
    const patched = await call('PATCH', `/transaction-rules/${rule.id}`, { actions: { categorySlug: ids.otherCategory } });
    expect(patched.status).toBe(400);
    expect(patched.body.details).toEqual([{ field: 'actions.categorySlug', message: 'no such category in your team' }]);

    expect(await db()('transaction_rules').where({ teamId: teamId() }).select('name', 'actions')).toEqual([
      { name: 'Coffee shops', actions: coffeeRule().actions },
    ]);
  });
});

describe('transaction rules on new transactions', () => {
  it('categorises a manual transaction, explains why, and never overrides what the user gave or later set', async () => {
    await call('POST', '/transaction-rules', coffeeRule());
    // A later rule that stops: its category wins over the first one's, and no rule after it runs.
    await call('POST', '/transaction-rules', {
      name: 'Big coffee',
      priority: 10,
      stopAfter: true,
      conditions: { any: [{ all: [{ field: 'name', operator: 'startsWith', value: 'Coffee Roastery', caseSensitive: true }] }] },
      actions: { categorySlug: ids.software },
    });
    await call('POST', '/transaction-rules', {
      name: 'Never reached',
      priority: 20,
      conditions: { any: [{ all: [{ field: 'currency', in: ['EUR'] }] }] },
      actions: { status: 'excluded' },
    });

    const create = (body: object) => call('POST', '/transactions', { date: '2026-11-02', currency: 'EUR', ...body });
    const latte = (await create({ name: 'Corner Coffee', amount: -4.5 })).body.data;
    expect(latte).toMatchObject({
      category: { slug: 'coffee' },
      note: 'caffeine',
      tags: [{ id: ids.tag, name: 'Caffeine' }],
      status: 'excluded',
      categorySource: {
        by: 'rule',
        ruleName: 'Coffee shops',
        explanation: "Rule 'Coffee shops' matched: name contains 'coffee' and expense of at most 50",
      },
    });
    const roastery = (await create({ name: 'Coffee Roastery GmbH', amount: -30 })).body.data;
    expect(roastery).toMatchObject({ category: { slug: 'software' }, note: 'caffeine', status: 'posted' });
    expect(roastery.categorySource.explanation).toBe("Rule 'Big coffee' matched: name starts with 'Coffee Roastery' (case-sensitive)");
    // Case-sensitive: the lower-case name is not the roastery.
    expect((await create({ name: 'coffee roastery', amount: -30 })).body.data.category.slug).toBe('coffee');
    // The regex group of the OR, on the counterparty.
    expect((await create({ name: 'SB 1234', counterpartyName: 'Starbucks Berlin', amount: -80 })).body.data.category.slug).toBe('coffee');

    // What the user gives is theirs: the rule fills in the rest.
    const given = (await create({ name: 'Coffee beans', amount: -12, categorySlug: 'software', note: 'for the office' })).body.data;
    expect(given).toMatchObject({ category: { slug: 'software' }, note: 'for the office', tags: [{ id: ids.tag }] });
    expect(given.categorySource).toMatchObject({ by: 'user', explanation: 'Set by hand' });

    // A user's edit afterwards wins over a later run of the rule.
    const edited = (await call('PATCH', `/transactions/${latte.id}`, { categorySlug: 'software' })).body.data;
    expect(edited.categorySource).toEqual({ by: 'user', ruleId: null, ruleName: null, explanation: 'Set by hand' });
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    expect((await trpc.transactions.getById.query({ id: latte.id })).categorySource?.by).toBe('user');
    const [rule] = (await call('GET', '/transaction-rules')).body.data;
    const run = (
      await call('POST', `/transaction-rules/${rule.id}/apply`, {
        from: '2026-11-02',
        to: '2026-11-02',
        filter: { statuses: ['posted', 'excluded'] },
      })
    ).body.data;
    await stack.worker.client.workflow.getHandle<ApplyRulesWorkflow>(run.workflowId).result();
    const after = (await call('GET', `/transactions/${latte.id}`)).body.data;
    expect(after).toMatchObject({ category: { slug: 'software' }, note: 'caffeine' });
  });

  it("a bulk edit is the user's own too: a later run leaves what it set and changes the rest", async () => {
    const rule = (
      await call('POST', '/transaction-rules', {
        name: 'Tea',
        conditions: { any: [{ all: [{ field: 'name', operator: 'equals', value: 'tea house' }] }] },
        actions: { categorySlug: ids.coffee, removeTags: [ids.tag] },
      })
    ).body.data;
    const create = async () =>
      (await call('POST', '/transactions', { date: '2026-10-01', currency: 'EUR', name: 'Tea House', amount: -3 })).body.data;
    const [mine, theirs] = [await create(), await create()];
    expect(mine.category.slug).toBe('coffee');
    const bulk = await call('PATCH', '/transactions/bulk', { ids: [mine.id, theirs.id], set: { categorySlug: 'software' } });
    expect(bulk.body.data).toEqual({ matched: 2, changed: 2 });
    // Tags were never the user's here: the rule may still remove them.
    await db()('transaction_tags').insert([mine, theirs].map((t) => ({ teamId: teamId(), transactionId: t.id, tagId: ids.tag })));
    await db()('transactions').where({ id: theirs.id }).update({ manualFields: [] });

    const run = await trpcAs(stack.api, stack.acme.sessionToken).transactionRules.apply.mutate({
      id: rule.id,
      data: { from: '2026-10-01', to: '2026-10-01' },
    });
    const result = await stack.worker.client.workflow.getHandle<ApplyRulesWorkflow>(run.workflowId).result();
    expect(result).toMatchObject({ scanned: 2, matched: 2, changed: 2 });
    const [mineAfter, theirsAfter] = [
      (await call('GET', `/transactions/${mine.id}`)).body.data,
      (await call('GET', `/transactions/${theirs.id}`)).body.data,
    ];
    expect(mineAfter).toMatchObject({ category: { slug: 'software' }, categorySource: { by: 'user' }, tags: [] });
    expect(theirsAfter).toMatchObject({ category: { slug: 'coffee' }, categorySource: { by: 'rule', ruleName: 'Tea' }, tags: [] });
  });

  it('applies to every row of a statement import and to every transaction a bank sync brings', async () => {
    await call('POST', '/transaction-rules', {
      name: 'Groceries',
      conditions: { any: [{ all: [{ field: 'name', operator: 'regex', value: '^rewe\\b' }] }] },
      actions: { categorySlug: ids.coffee, recurring: true },
    });
    await call('POST', '/transaction-rules', {
      name: 'Food by the bank',
      conditions: { any: [{ all: [{ field: 'providerCategory', operator: 'equals', value: 'food_and_drink' }] }] },
      actions: { categorySlug: ids.software, addTags: [ids.tag] },
    });

    await importStatement(stack, ids.account, [
      '2026-11-03,REWE Markt Berlin,-12.30',
      '2026-11-04,Miete,-950.00',
      '2026-11-05,rewe city,-3.10',
    ]);
    const imported = await db()('transactions')
      .where({ bankAccountId: ids.account })
      .orderBy('date')
      .select('name', 'categorySlug', 'recurring');
    expect(imported).toEqual([
      { name: 'REWE Markt Berlin', categorySlug: 'coffee', recurring: true },
      { name: 'Miete', categorySlug: null, recurring: false },
      { name: 'rewe city', categorySlug: 'coffee', recurring: true },
    ]);
    const item = bankA.addItem();
    bankA.addTransactions(item.itemId, 40);
    const connection = (await call('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken })).body.data;
    await stack.worker.client.workflow.getHandle(`sync-connection:${connection.id}`).result();
    const synced = await db()('transactions')
      .where({ teamId: teamId() })
      .whereNotNull('providerTransactionId')
      .select('id', 'providerCategory', 'categorySlug', 'fieldSources');
    expect(synced).toHaveLength(40);
    const food = synced.filter((t) => t.providerCategory === 'FOOD_AND_DRINK');
    expect(food).toHaveLength(20);
    for (const t of food) expect(t.fieldSources.categorySlug).toMatchObject({ by: 'rule', ruleName: 'Food by the bank' });
    // The rule chose for the bank's food rows and no others (the rest may be learned from them: learned-categories.test.ts).
    expect(synced.filter((t) => t.fieldSources.categorySlug?.by === 'rule')).toHaveLength(20);
    expect(
      await db()('transaction_tags').whereIn(
        'transactionId',
        food.map((t) => t.id),
      ),
    ).toHaveLength(20);
  }, 90_000);
});

describe('ApplyRules over existing transactions', () => {
  it('a dry run and a real run over a few thousand rows agree; progress is visible; a second run at once does not fight', async () => {
    const team = teamId();
    // 3,000 rows: every third is named "Coffee …"; a tenth of those the user already categorised by hand.
    await db()('transactions').where({ teamId: team }).delete();
    const rows = await insertTransactions(db(), team, 3_000, '2026-06-30');
    await db().raw(`update transactions set name = 'Coffee ' || name where team_id = ? and (amount::int % 3) = 0`, [team]);
    await db().raw(
      `update transactions set category_slug = 'software', manual_fields = '{categorySlug}' where team_id = ? and (amount::int % 30) = 0`,
      [team],
    );
    const rule = (
      await call('POST', '/transaction-rules', {
        name: 'Coffee',
        conditions: { any: [{ all: [{ field: 'name', operator: 'startsWith', value: 'coffee ' }] }] },
        actions: { categorySlug: ids.coffee },
      })
    ).body.data;
    const matching = rows.filter((_, i) => (i + 1) % 3 === 0).length;
    const byHand = rows.filter((_, i) => (i + 1) % 30 === 0).length;

    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const dry = await trpc.transactionRules.apply.mutate({ id: rule.id, data: { dryRun: true } });
    expect(dry).toMatchObject({ dryRun: true, workflowId: applyRulesId(dry.id) });
    const dryResult = await stack.worker.client.workflow.getHandle<ApplyRulesWorkflow>(dry.workflowId).result();
    expect(dryResult).toMatchObject({ stage: 'completed', dryRun: true, scanned: 3_000, matched: matching, changed: matching - byHand });
    expect(await db()('transactions').where({ teamId: team, categorySlug: 'coffee' })).toHaveLength(0);
    // Found in the Temporal UI by what it is and where it got to.
    const described = await stack.worker.client.workflow.getHandle(dry.workflowId).describe();
    expect(await described.staticSummary()).toBe('Apply rule · Coffee · dry run · all dates');
    expect(described.typedSearchAttributes.get(TeamId)).toBe(team);
    expect(described.typedSearchAttributes.get(Stage)).toBe('completed');
    expect((await stack.worker.client.workflow.getHandle(dry.workflowId).query(workflowMetadataQuery)).currentDetails).toBe(
      `Done: read 3,000, matched ${matching.toLocaleString('en')}, would change ${(matching - byHand).toLocaleString('en')}`,
    );
    expect((await call('GET', `/transaction-rules/runs/${dry.id}`)).body.data).toMatchObject({
      status: 'completed',
      scanned: 3_000,
      matched: matching,
      changed: matching - byHand,
    });

    // Two real runs at once: the second finds the first's work done, or does it itself; neither fights the other.
    const events = async () =>
      Number((await db()('events').where({ teamId: team, type: 'transaction.updated' }).count('* as n').first())?.n);
    const eventsBefore = await events();
    const first = (await call('POST', `/transaction-rules/${rule.id}/apply`, {})).body.data;
    const second = (await call('POST', `/transaction-rules/${rule.id}/apply`, { filter: { amountMax: -1 } })).body.data;
    const handle = stack.worker.client.workflow.getHandle<ApplyRulesWorkflow>(first.workflowId);
    await eventually(async () => (await handle.query(applyRulesProgress)).scanned > 0, 30_000, 'progress');
    const [a, b] = await Promise.all([
      handle.result(),
      stack.worker.client.workflow.getHandle<ApplyRulesWorkflow>(second.workflowId).result(),
    ]);
    expect(a.stage).toBe('completed');
    expect(b.stage).toBe('completed');
    expect(a.changed + b.changed).toBe(dryResult.changed);
    expect(await db()('transactions').where({ teamId: team, categorySlug: 'coffee' })).toHaveLength(dryResult.changed);
    expect(await db()('transactions').where({ teamId: team, categorySlug: 'software' })).toHaveLength(byHand);
    // Each change was announced once.
    expect((await events()) - eventsBefore).toBe(dryResult.changed);
    const run = (await call('GET', `/transaction-rules/runs/${first.id}`)).body.data;
    expect(run).toMatchObject({ status: 'completed', scanned: 3_000, matched: matching, completedAt: expect.any(String) });
    // The other team cannot read the run.
    expect((await call('GET', `/transaction-rules/runs/${first.id}`, undefined, other.sessionToken)).status).toBe(404);
    expect((await trpcError(trpcAs(stack.api, other.sessionToken).transactionRules.getRun.query({ runId: first.id }))).httpStatus).toBe(
      404,
    );
    // Nothing left to change: a third run changes nothing.
    const third = await trpc.transactionRules.apply.mutate({ id: rule.id, data: {} });
    expect(await stack.worker.client.workflow.getHandle<ApplyRulesWorkflow>(third.workflowId).result()).toMatchObject({ changed: 0 });
    expect((await trpc.transactionRules.getRun.query({ runId: third.id })).changed).toBe(0);
  }, 120_000);
});
