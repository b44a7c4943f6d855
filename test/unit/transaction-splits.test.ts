import { compileRules, evaluate, splitParts, type RuleRow, type TeamReferences } from '../../shared/domain/transaction-rules/engine';
import { createRuleBody, ruleSplitSchema } from '../../shared/domain/transaction-rules/schema';
import { fromScaled, splitByAmounts, splitByPercentages, splitProblems, toScaled } from '../../shared/domain/transactions/split-amounts';

const TAG = '00000000-0000-4000-8000-0000000000aa';
const GONE_TAG = '00000000-0000-4000-8000-0000000000bb';
const refs: TeamReferences = { categories: new Set(['rent', 'office', 'food']), tags: new Set([TAG]), members: new Set() };
const sum = (xs: number[]) => fromScaled(xs.map(toScaled).reduce((a, b) => a + b, 0n));

describe('split arithmetic', () => {
  it('reads and writes amounts exactly in ten-thousandths', () => {
    expect(toScaled(19.99)).toBe(199_900n);
    expect(toScaled(-0.1)).toBe(-1_000n);
    expect(toScaled(123_456_789_012.34)).toBe(1_234_567_890_123_400n);
    expect(fromScaled(-1_000n)).toBe(-0.1);
    expect(fromScaled(toScaled(0.1) + toScaled(0.2))).toBe(0.3);
  });

  it('accepts parts that sum exactly, where floats would not (0.1 + 0.2)', () => {
    expect(splitProblems(-0.3, 'EUR', [-0.1, -0.2])).toEqual([]);
    expect(splitProblems(100, 'JPY', [30, 70])).toEqual([]);
    expect(splitProblems(-1.235, 'BHD', [-1, -0.235])).toEqual([]);
  });

  it('refuses a sum that is off by one minor unit, naming the sum', () => {
    expect(splitProblems(-100, 'EUR', [-60, -39.99])).toEqual([
      { index: null, message: "the parts sum to -99.99 EUR, not the transaction's -100 EUR" },
    ]);
  });

  it('refuses a part of the wrong sign, a zero part and decimals the currency does not have', () => {
    const problems = splitProblems(-100, 'EUR', [-120, 20]);
    expect(problems).toContainEqual({ index: 1, message: "must be negative, as the transaction's amount is" });
    expect(splitProblems(-100, 'EUR', [-100, 0])).toContainEqual({ index: 1, message: "must be negative, as the transaction's amount is" });
    expect(splitProblems(-100, 'EUR', [-50.005, -49.995]).map((p) => p.index)).toEqual([0, 1]);
    expect(splitProblems(100, 'JPY', [50.5, 49.5]).map((p) => p.index)).toEqual([0, 1]);
    expect(splitProblems(0, 'EUR', [1, -1])).toEqual([{ index: null, message: 'a transaction of amount 0 cannot be split' }]);
  });

  it('lets parts be as fine as a whole the bank wrote finer than the currency', () => {
    expect(splitProblems(-10.005, 'EUR', [-5.0025, -5.0025])).toEqual([]);
  });

  it('rounds percentage parts to minor units and hands the leftover units out, so they sum exactly', () => {
    expect(splitByPercentages(-100, 'EUR', [33.3333, 33.3333, 33.3334])).toEqual([-33.33, -33.33, -33.34]);
    expect(splitByPercentages(10, 'EUR', [33.3333, 33.3333, 33.3334])).toEqual([3.33, 3.33, 3.34]);
    // One yen cannot be split in cents: the leftover yen goes to the part that lost most.
    expect(splitByPercentages(1001, 'JPY', [50, 50])).toEqual([501, 500]);
    expect(splitByPercentages(-0.005, 'BHD', [60, 40])).toEqual([-0.003, -0.002]);
    for (const total of [-0.07, -1, -99.99, -1234.56, 0.11, 987654.32]) {
      for (const shares of [
        [50, 50],
        [33.3333, 33.3333, 33.3334],
        [10, 20, 30, 40],
        [12.5, 12.5, 75],
        [1, 1, 98],
      ]) {
        const parts = splitByPercentages(total, 'EUR', shares);
        if (parts === null) continue;
        expect(sum(parts)).toBe(total);
        for (const p of parts) expect(Math.round(p * 100) / 100).toBe(p);
      }
    }
  });

  it('refuses percentages that do not add to 100, and a split that would leave a part empty', () => {
    expect(splitByPercentages(-100, 'EUR', [50, 49])).toBeNull();
    expect(splitByPercentages(-0.01, 'EUR', [50, 50])).toBeNull();
    expect(splitByPercentages(-0.02, 'EUR', [50, 50])).toEqual([-0.01, -0.01]);
  });

  it('splits by fixed amounts with the rest as a remainder part, taking the whole’s sign', () => {
    expect(splitByAmounts(-1200, 'EUR', [800], true)).toEqual([-800, -400]);
    expect(splitByAmounts(-1200, 'EUR', [800, 400], true)).toEqual([-800, -400]);
    expect(splitByAmounts(-1200, 'EUR', [800, 400], false)).toEqual([-800, -400]);
    expect(splitByAmounts(-1200, 'EUR', [800], false)).toBeNull();
    expect(splitByAmounts(-1200, 'EUR', [1300], true)).toBeNull();
    expect(splitByAmounts(-1200, 'EUR', [1200], true)).toBeNull();
    expect(splitByAmounts(-1200, 'JPY', [0.5], true)).toBeNull();
  });
});

describe('the split action of rules', () => {
  const row = (over: Partial<RuleRow> = {}): RuleRow => ({
    id: 'r1',
    name: 'Landlord GmbH',
    description: null,
    counterpartyName: null,
    merchantName: null,
    providerCategory: null,
    amount: -1000,
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
  const rule = (split: object) => {
    const body = createRuleBody.parse({
      name: 'Rent',
      conditions: { any: [{ all: [{ field: 'name', operator: 'contains', value: 'landlord' }] }] },
      actions: { split },
    });
    return compileRules([{ id: 'rule-1', name: body.name, stopAfter: false, conditions: body.conditions, actions: body.actions }]);
  };
  const byShares = {
    by: 'percentage',
    parts: [
      { percentage: 70, categorySlug: 'rent', tags: [TAG, GONE_TAG] },
      { percentage: 30, categorySlug: 'office', note: 'home office' },
    ],
  };

  it('refuses percentages that do not add up to 100, and fewer than two parts', () => {
    expect(ruleSplitSchema.safeParse({ by: 'percentage', parts: [{ percentage: 70 }, { percentage: 20 }] }).success).toBe(false);
    expect(ruleSplitSchema.safeParse({ by: 'amount', parts: [{ amount: 10 }] }).success).toBe(false);
    expect(ruleSplitSchema.safeParse({ by: 'amount', parts: [{ amount: 10 }], remainder: {} }).success).toBe(true);
  });

  it('splits a matching transaction, leaving off a tag the team no longer has, and says why', () => {
    const { change } = evaluate(rule(byShares), row(), refs);
    expect(change?.set.splits).toEqual([
      { amount: -700, categorySlug: 'rent', tags: [TAG], note: null },
      { amount: -300, categorySlug: 'office', tags: [], note: 'home office' },
    ]);
    expect(change?.sources.splits).toMatchObject({
      by: 'rule',
      ruleId: 'rule-1',
      explanation: "Rule 'Rent' matched: name contains 'landlord'",
    });
  });

  it('never replaces a split set by hand, and changes nothing when the split is already there', () => {
    expect(evaluate(rule(byShares), row({ manualFields: ['splits'] }), refs).change).toBeNull();
    const parts = splitParts(createRuleBody.shape.actions.parse({ split: byShares }).split!, row(), refs)!;
    // As PostgreSQL hands jsonb back: keys in its own order.
    const stored = parts.map(({ note, tags, amount, categorySlug }) => ({ note, tags, amount, categorySlug }));
    expect(evaluate(rule(byShares), row({ splits: stored }), refs).change).toBeNull();
  });

  it('leaves a transaction whole when fixed amounts do not fit it', () => {
    const fixed = { by: 'amount', parts: [{ amount: 800, categorySlug: 'rent' }], remainder: { categorySlug: 'office' } };
    expect(evaluate(rule(fixed), row(), refs).change?.set.splits).toEqual([
      { amount: -800, categorySlug: 'rent', tags: [], note: null },
      { amount: -200, categorySlug: 'office', tags: [], note: null },
    ]);
    expect(evaluate(rule(fixed), row({ amount: -500 }), refs).change).toBeNull();
  });
});
