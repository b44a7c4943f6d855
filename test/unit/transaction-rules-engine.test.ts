import {
  compileRules,
  evaluate,
  matchesAny,
  matchRule,
  linksRead,
  type RuleRow,
  type StoredRule,
  type TeamReferences,
} from '../../shared/domain/transaction-rules/engine';
import { compilePattern, unsafePatternReason } from '../../shared/domain/transaction-rules/regex';
import { createRuleBody, type RuleCondition } from '../../shared/domain/transaction-rules/schema';

const ACCOUNT = '00000000-0000-4000-8000-000000000001';
const TAG = '00000000-0000-4000-8000-0000000000aa';
const GONE_TAG = '00000000-0000-4000-8000-0000000000bb';
const refs: TeamReferences = { categories: new Set(['coffee', 'software']), tags: new Set([TAG]), members: new Set() };

const row = (over: Partial<RuleRow> = {}): RuleRow => ({
  id: 'r1',
  name: 'Corner Coffee',
  description: null,
  counterpartyName: null,
  merchantName: null,
  providerCategory: null,
  amount: -4.5,
  currency: 'EUR',
  bankAccountId: null,
  date: '2026-11-02',
  hasAttachment: false,
  categorySlug: null,
  note: null,
  status: 'posted',
  assignedId: null,
  recurring: false,
  tags: [],
  splits: null,
  manualFields: [],
  ...over,
});

/** A rule as the API stores it: parsed by the create schema (defaults filled). */
const rule = (name: string, conditions: object[][], actions: object, extra: object = {}): StoredRule => {
  const body = createRuleBody.parse({ name, conditions: { any: conditions.map((all) => ({ all })) }, actions, ...extra });
  return { id: `id-${name}`, name: body.name, stopAfter: body.stopAfter, conditions: body.conditions, actions: body.actions };
};
const matches = (condition: object, r: RuleRow) => evaluate(compileRules([rule('t', [[condition]], { note: 'x' })]), r, refs).matched;

describe('rule conditions', () => {
  it.each<[string, Partial<RuleCondition>, Partial<RuleRow>, boolean]>([
    ['contains, any case', { field: 'name', operator: 'contains', value: 'COFFEE' }, {}, true],
    ['contains, case-sensitive', { field: 'name', operator: 'contains', value: 'coffee', caseSensitive: true }, {}, false],
    ['equals', { field: 'name', operator: 'equals', value: 'corner coffee' }, {}, true],
    ['equals is whole', { field: 'name', operator: 'equals', value: 'corner' }, {}, false],
    ['startsWith', { field: 'name', operator: 'startsWith', value: 'corner' }, {}, true],
    ['regex, any case', { field: 'name', operator: 'regex', value: '^CORNER\\s+\\w+$' }, {}, true],
    ['regex keeps \\S and \\W', { field: 'name', operator: 'regex', value: '^\\S+\\W\\S+$' }, {}, true],
    ['regex, case-sensitive', { field: 'name', operator: 'regex', value: '^corner', caseSensitive: true }, {}, false],
    ['description absent', { field: 'description', operator: 'contains', value: 'x' }, {}, false],
    ['counterparty by merchant', { field: 'counterparty', operator: 'equals', value: 'starbucks' }, { merchantName: 'Starbucks' }, true],
    [
      'bank category',
      { field: 'providerCategory', operator: 'equals', value: 'FOOD_AND_DRINK' },
      { providerCategory: 'food_and_drink' },
      true,
    ],
    ['expense', { field: 'amount', sign: 'expense' }, {}, true],
    ['income', { field: 'amount', sign: 'income' }, {}, false],
    ['absolute range', { field: 'amount', min: 4, max: 5 }, {}, true],
    ['below the range', { field: 'amount', min: 5 }, {}, false],
    ['currency', { field: 'currency', in: ['USD', 'EUR'] }, {}, true],
    ['other currency', { field: 'currency', in: ['USD'] }, {}, false],
    ['account', { field: 'bankAccount', in: [ACCOUNT] }, { bankAccountId: ACCOUNT }, true],
    ['no account', { field: 'bankAccount', in: [ACCOUNT] }, {}, false],
    ['date range', { field: 'date', from: '2026-11-01', to: '2026-11-30' }, {}, true],
    ['before the range', { field: 'date', from: '2026-11-03' }, {}, false],
    ['attachment', { field: 'hasAttachment', value: true }, { hasAttachment: true }, true],
    ['no attachment', { field: 'hasAttachment', value: false }, { hasAttachment: true }, false],
  ])('%s', (_label, condition, over, expected) => {
    expect(matches(condition, row(over))).toBe(expected);
  });

  it('ANDs within a group and ORs the groups, explaining by the group that matched', () => {
    const r = rule(
      'Coffee',
      [
        [{ field: 'name', operator: 'contains', value: 'tea' }],
        [
          { field: 'amount', sign: 'expense', max: 5 },
          { field: 'currency', in: ['EUR'] },
        ],
      ],
      {
        categorySlug: 'coffee',
      },
    );
    const { change } = evaluate(compileRules([r]), row(), refs);
    expect(change?.set).toEqual({ categorySlug: 'coffee' });
    expect(change?.sources.categorySlug?.explanation).toBe("Rule 'Coffee' matched: expense of at most 5 and currency is EUR");
    expect(evaluate(compileRules([r]), row({ amount: -6 }), refs).matched).toBe(false);
  });
});

describe('rule actions', () => {
  const coffee = rule('Coffee', [[{ field: 'name', operator: 'contains', value: 'coffee' }]], {
    categorySlug: 'coffee',
    note: 'a',
    addTags: [TAG, GONE_TAG],
  });
  const software = rule('Software', [[{ field: 'amount', sign: 'expense' }]], { categorySlug: 'software', status: 'excluded' });

  it('runs in order, a later action over an earlier one, until a rule that stops', () => {
    expect(evaluate(compileRules([coffee, software]), row(), refs).change?.set).toEqual({
      categorySlug: 'software',
      note: 'a',
      status: 'excluded',
    });
    const stopping = { ...coffee, stopAfter: true };
    expect(evaluate(compileRules([stopping, software]), row(), refs).change?.set).toEqual({ categorySlug: 'coffee', note: 'a' });
  });

  it('never changes a field the user set by hand, and skips a category or tag the team no longer has', () => {
    const { change } = evaluate(compileRules([coffee]), row({ manualFields: ['categorySlug'], categorySlug: 'software' }), refs);
    expect(change).toMatchObject({ set: { note: 'a' }, addTags: [TAG] });
    const gone = rule('Gone', [[{ field: 'currency', in: ['EUR'] }]], { categorySlug: 'deleted' });
    expect(evaluate(compileRules([gone]), row(), refs)).toEqual({ matched: true, change: null });
    const tagsByHand = evaluate(compileRules([coffee]), row({ manualFields: ['tags'] }), refs).change;
    expect(tagsByHand?.addTags).toEqual([]);
  });

  it('reports no change when the row already holds what the rules set (applying is idempotent)', () => {
    expect(evaluate(compileRules([coffee]), row({ categorySlug: 'coffee', note: 'a', tags: [TAG] }), refs)).toEqual({
      matched: true,
      change: null,
    });
  });
});

describe('rules that require a value (found by lookup, not tested one by one)', () => {
  const byCounterparty = rule('Acme', [[{ field: 'counterparty', operator: 'equals', value: 'ACME' }]], { note: 'acme' });
  const exactCase = rule('Exact', [[{ field: 'name', operator: 'equals', value: 'Tea', caseSensitive: true }]], { note: 'exact' });
  const orContains = rule(
    'Either',
    [
      [
        { field: 'name', operator: 'equals', value: 'corner coffee' },
        { field: 'amount', max: 3 },
      ],
      [{ field: 'description', operator: 'contains', value: 'beans' }],
    ],
    { categorySlug: 'coffee' },
  );
  const bothEqual = rule(
    'Both',
    [[{ field: 'providerCategory', operator: 'equals', value: 'food' }], [{ field: 'description', operator: 'equals', value: 'lunch' }]],
    { recurring: true },
    { stopAfter: true },
  );
  const always = rule('Euro', [[{ field: 'currency', in: ['EUR'] }]], { note: 'euro' });
  const rules = compileRules([byCounterparty, exactCase, orContains, bothEqual, always]);
  const rows: Partial<RuleRow>[] = [
    {},
    { merchantName: 'acme' },
    { counterpartyName: 'Other', merchantName: 'Acme' },
    { name: 'Tea' },
    { name: 'tea' },
    { amount: -2 },
    { name: 'Tea', description: 'Beans by the kilo' },
    { providerCategory: 'FOOD' },
    { description: 'Lunch', merchantName: 'ACME' },
  ];

  // The same rules with no value required: each is tested on every row.
  const oneByOne = rules.map((c) => ({ ...c, requires: null }));

  it.each(rows.map((over) => [JSON.stringify(over), over] as const))('decide as the rules tested one by one: %s', (_label, over) => {
    const r = row(over);
    expect(evaluate(rules, r, refs)).toEqual(evaluate(oneByOne, r, refs));
    expect(matchesAny(rules, r)).toBe(oneByOne.some((c) => matchRule(c, r) !== null));
  });

  it('finds a rule by either name of the counterparty, in any case unless asked, and stops where told', () => {
    expect(evaluate(rules, row({ counterpartyName: 'Other', merchantName: 'acme' }), refs).change?.set.note).toBe('euro');
    expect(evaluate(rules, row({ counterpartyName: 'Other', merchantName: 'acme' }), refs).change?.sources.note?.ruleName).toBe('Euro');
    expect(evaluate(rules, row({ name: 'tea', merchantName: 'ACME', providerCategory: 'Food' }), refs).change).toMatchObject({
      set: { note: 'acme', recurring: true },
    });
    expect(evaluate(rules, row({ name: 'Tea', providerCategory: 'Food' }), refs).change?.set.note).toBe('exact');
  });

  it('explains a rule by the group that matched, when that group needs no value', () => {
    const { change } = evaluate(rules, row({ name: 'Tea', description: 'beans' }), refs);
    expect(change?.sources.categorySlug?.explanation).toBe("Rule 'Either' matched: description contains 'beans'");
  });
});

describe('regular expressions', () => {
  it.each(['(a+)+$', '(a*)*', '(\\d+\\.?)+x', '(a|a)*', '(?:ab|a)+c', '(x{2,})*', '([a-z]+)*$'])(
    'refuses the backtracking shape %s',
    (p) => {
      expect(unsafePatternReason(p)).toMatch(/exponential/);
    },
  );
  it.each([
    ['(a)\\1', /backreferences/],
    ['(?<n>a)\\k<n>', /backreferences/],
    ['foo(?=bar)', /lookahead/],
    ['(?<!x)y', /lookahead/],
    ['[', /not a valid regular expression/],
    ['a'.repeat(201), /longer than 200/],
  ])('refuses %s', (p, reason) => {
    expect(unsafePatternReason(p)).toMatch(reason);
  });
  it.each(['github', '^amzn\\s+mktp', '(ab)+', 'x{2,5}', '[(+*]+', '(?:foo|bar)?baz', '\\d{4}-\\d{2}'])('accepts %s', (p) => {
    expect(unsafePatternReason(p)).toBeNull();
  });

  it('runs in linear time: a polynomial pattern over a long text answers at once', () => {
    const test = compilePattern('.*a.*a.*a.*a.*b', false);
    const started = Date.now();
    expect(test('a'.repeat(5000))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('matching alone (an ApplyRules batch tests every row by what its conditions read)', () => {
  const coffee = rule('Coffee', [[{ field: 'name', operator: 'contains', value: 'coffee' }]], { note: 'a' }, { stopAfter: true });
  const vendor = rule('Vendor', [[{ field: 'counterparty', operator: 'equals', value: 'acme' }]], { note: 'b' });
  const receipt = rule('Receipt', [[{ field: 'hasAttachment', value: true }]], { note: 'c' });

  it.each<[string, Partial<RuleRow>]>([
    ['the first rule, which stops the others', {}],
    ['only a later rule', { name: 'Tea', merchantName: 'ACME' }],
    ['no rule', { name: 'Tea' }],
    ['by the attachment', { name: 'Tea', hasAttachment: true }],
  ])('agrees with what evaluate counts as matched: %s', (_label, over) => {
    const rules = compileRules([coffee, vendor, receipt]);
    expect(matchesAny(rules, row(over))).toBe(evaluate(rules, row(over), refs).matched);
  });

  it('reads attachments only when a condition asks, tags only when an action adds or removes one', () => {
    expect(linksRead(compileRules([coffee, vendor]))).toEqual({ tags: false, attachments: false });
    expect(linksRead(compileRules([coffee, receipt]))).toEqual({ tags: false, attachments: true });
    const tagging = rule('Tagging', [[{ field: 'currency', in: ['EUR'] }]], { removeTags: [TAG] });
    expect(linksRead(compileRules([vendor, tagging]))).toEqual({ tags: true, attachments: false });
  });
});
