import type { FieldSource, RuleField, StoredSplitPart } from '../../db/models';
import { splitByAmounts, splitByPercentages } from '../transactions/split-amounts';
import { compilePattern } from './regex';
import type { RuleActions, RuleCondition, RuleConditions, RuleSplit } from './schema';

/** A transaction as rules read it (and the values its actions may change). */
export interface RuleRow {
  id: string;
  name: string;
  description: string | null;
  counterpartyName: string | null;
  merchantName: string | null;
  providerCategory: string | null;
  amount: number;
  currency: string;
  bankAccountId: string | null;
  date: string;
  hasAttachment: boolean;
  categorySlug: string | null;
  note: string | null;
  status: string;
  assignedId: string | null;
  recurring: boolean;
  tags: string[];
  splits: StoredSplitPart[] | null;
  manualFields: string[];
}

/** What a rule's conditions read of a transaction: an ApplyRules batch reads only this of every row. */
export type MatchRow = Pick<
  RuleRow,
  | 'id'
  | 'name'
  | 'description'
  | 'counterpartyName'
  | 'merchantName'
  | 'providerCategory'
  | 'amount'
  | 'currency'
  | 'bankAccountId'
  | 'date'
  | 'hasAttachment'
>;

/** A rule as stored: what compileRules takes. */
export interface StoredRule {
  id: string;
  name: string;
  stopAfter: boolean;
  conditions: RuleConditions;
  actions: RuleActions;
}

/** What still exists in the team when the rules run: an action naming a deleted category, tag or member does nothing. */
export interface TeamReferences {
  categories: ReadonlySet<string>;
  tags: ReadonlySet<string>;
  members: ReadonlySet<string>;
}

type Test = (row: MatchRow) => boolean;
type TextField = 'name' | 'description' | 'counterparty' | 'providerCategory';
/** A text field's value that a condition requires exactly (`equals`), folded as the condition compares it. */
interface EqualsKey {
  field: TextField;
  caseSensitive: boolean;
  value: string;
}
interface CompiledCondition {
  test: Test;
  words: string;
  equals?: EqualsKey;
}
export interface CompiledRule {
  rule: StoredRule;
  /** Each OR group's conditions; the first group that matches explains the match. */
  groups: CompiledCondition[][];
  /**
   * One `equals` of each OR group when every group has one: the rule matches no row that has none of
   * these values, so a row is looked up once rather than tested against each such rule (RuleIndex).
   */
  requires: EqualsKey[] | null;
}

/** The change rules make to one transaction: only what differs from its current values. */
export interface RowChange {
  id: string;
  set: Partial<Pick<RuleRow, 'categorySlug' | 'note' | 'status' | 'assignedId' | 'recurring'>> & { splits?: StoredSplitPart[] };
  addTags: string[];
  removeTags: string[];
  sources: Partial<Record<RuleField, FieldSource>>;
}

const quote = (s: string) => `'${s}'`;

function textTest(c: Extract<RuleCondition, { operator: string }>): CompiledCondition {
  const field: 'name' | 'description' | 'counterpartyName' | 'providerCategory' = c.field === 'counterparty' ? 'counterpartyName' : c.field;
  const label = c.field === 'providerCategory' ? "the bank's category" : c.field;
  const cs = c.caseSensitive;
  const fold = (s: string) => (cs ? s : s.toLowerCase());
  const value = fold(c.value);
  let one: (s: string) => boolean;
  switch (c.operator) {
    case 'contains':
      one = (s) => fold(s).includes(value);
      break;
    case 'equals':
      one = (s) => fold(s) === value;
      break;
    case 'startsWith':
      one = (s) => fold(s).startsWith(value);
      break;
    case 'regex': {
      one = compilePattern(c.value, cs);
      break;
    }
  }
  const op = c.operator === 'startsWith' ? 'starts with' : c.operator === 'regex' ? 'matches' : c.operator;
  const words = `${label} ${op} ${c.operator === 'regex' ? `/${c.value}/` : quote(c.value)}${cs ? ' (case-sensitive)' : ''}`;
  // Read field by field, not as a list per row: a run tests a million rows.
  const has = (s: string | null) => s !== null && one(s);
  const test: Test = c.field === 'counterparty' ? (r) => has(r.counterpartyName) || has(r.merchantName) : (r) => has(r[field]);
  const equals = c.operator === 'equals' ? { field: c.field, caseSensitive: cs, value } : undefined;
  return { test, words, equals };
}

function compileCondition(c: RuleCondition): CompiledCondition {
  switch (c.field) {
    case 'amount': {
      const { sign, min, max } = c;
      const parts = [sign === 'income' ? 'income' : sign === 'expense' ? 'expense' : 'amount'];
      if (min !== undefined && max !== undefined) parts.push(`between ${min} and ${max}`);
      else if (min !== undefined) parts.push(`of at least ${min}`);
      else if (max !== undefined) parts.push(`of at most ${max}`);
      return {
        test: (r) => {
          if (sign === 'income' && !(r.amount > 0)) return false;
          if (sign === 'expense' && !(r.amount < 0)) return false;
          const abs = Math.abs(r.amount);
          return (min === undefined || abs >= min) && (max === undefined || abs <= max);
        },
        words: parts.join(' '),
      };
    }
    case 'currency': {
      const set = new Set(c.in);
      return { test: (r) => set.has(r.currency), words: `currency is ${c.in.join(' or ')}` };
    }
    case 'bankAccount': {
      const set = new Set(c.in);
      return { test: (r) => r.bankAccountId !== null && set.has(r.bankAccountId), words: 'on a chosen bank account' };
    }
    case 'date': {
      const { from, to } = c;
      const words = from && to ? `dated ${from} to ${to}` : from ? `dated from ${from}` : `dated until ${to}`;
      return { test: (r) => (!from || r.date >= from) && (!to || r.date <= to), words };
    }
    case 'hasAttachment':
      return { test: (r) => r.hasAttachment === c.value, words: c.value ? 'has an attachment' : 'has no attachment' };
    default:
      return textTest(c);
  }
}

/** Compiles each rule once (regular expressions included), for every row of a batch. */
export function compileRules(rules: readonly StoredRule[]): CompiledRule[] {
  return rules.map((rule) => {
    const groups = rule.conditions.any.map((g) => g.all.map(compileCondition));
    const keys = groups.map((g) => g.find((c) => c.equals)?.equals);
    const requires = keys.length && keys.every((k) => k !== undefined) ? keys : null;
    return { rule, groups, requires };
  });
}

/**
 * Which of a rule list's rules may match a row: those that require an exact value (`requires`) are
 * found by the row's own values, one lookup per field and case, instead of each being tested (a
 * team's rules are mostly "counterparty equals X"); the others may always match. Built once per
 * list, on first use.
 */
class RuleIndex {
  /** By field and case: each folded value's rules, by their position in the list. */
  private readonly lookups: { field: TextField; caseSensitive: boolean; rules: Map<string, number[]> }[] = [];
  private readonly keyed: Uint8Array;
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(rules: readonly CompiledRule[]) {
    this.keyed = new Uint8Array(rules.length);
    this.seen = new Uint32Array(rules.length);
    rules.forEach((compiled, i) => {
      if (!compiled.requires) return;
      this.keyed[i] = 1;
      for (const key of compiled.requires) {
        let lookup = this.lookups.find((l) => l.field === key.field && l.caseSensitive === key.caseSensitive);
        if (!lookup) this.lookups.push((lookup = { field: key.field, caseSensitive: key.caseSensitive, rules: new Map() }));
        const at = lookup.rules.get(key.value);
        if (at) at.push(i);
        else lookup.rules.set(key.value, [i]);
      }
    });
  }

  /** Marks the rules that may match the row; `may` answers for it until the next call. */
  mark(row: MatchRow): void {
    if (++this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    for (const { field, caseSensitive, rules } of this.lookups) {
      const look = (s: string | null) => {
        if (s === null) return;
        const at = rules.get(caseSensitive ? s : s.toLowerCase());
        if (at) for (const i of at) this.seen[i] = this.stamp;
      };
      if (field === 'counterparty') {
        look(row.counterpartyName);
        look(row.merchantName);
      } else look(row[field]);
    }
  }

  may(i: number): boolean {
    return this.keyed[i] === 0 || this.seen[i] === this.stamp;
  }
}

const indexes = new WeakMap<readonly CompiledRule[], RuleIndex>();
function indexOf(rules: readonly CompiledRule[]): RuleIndex {
  let index = indexes.get(rules);
  if (!index) indexes.set(rules, (index = new RuleIndex(rules)));
  return index;
}

const matchesGroups = (rule: CompiledRule, row: MatchRow) => rule.groups.some((group) => group.every((c) => c.test(row)));

/** Why the rule matches this row, in words (`name contains 'github'`), or null when it does not. */
export function matchRule(rule: CompiledRule, row: MatchRow): string | null {
  for (const group of rule.groups) {
    if (group.every((c) => c.test(row))) return group.map((c) => c.words).join(' and ');
  }
  return null;
}

/** Whether some rule matches the row: what `evaluate` answers as `matched` (a rule stops the others only once it matched). */
export function matchesAny(rules: readonly CompiledRule[], row: MatchRow): boolean {
  const index = indexOf(rules);
  index.mark(row);
  return rules.some((rule, i) => index.may(i) && matchesGroups(rule, row));
}

/** What the rules read of a transaction's links: its tags when an action adds or removes one, its files when a condition asks. */
export interface LinksRead {
  tags: boolean;
  attachments: boolean;
}

export const linksRead = (rules: readonly CompiledRule[]): LinksRead => ({
  tags: rules.some((r) => !!(r.rule.actions.addTags || r.rule.actions.removeTags)),
  attachments: rules.some((r) => r.rule.conditions.any.some((g) => g.all.some((c) => c.field === 'hasAttachment'))),
});

/**
 * The parts a rule's split makes of this row, or null when the split does not fit its amount. A
 * category or tag deleted since the rule was written is left off its part, as the other actions skip it.
 */
export function splitParts(split: RuleSplit, row: Pick<RuleRow, 'amount' | 'currency'>, refs: TeamReferences): StoredSplitPart[] | null {
  const amounts =
    split.by === 'percentage'
      ? splitByPercentages(
          row.amount,
          row.currency,
          split.parts.map((p) => p.percentage),
        )
      : splitByAmounts(
          row.amount,
          row.currency,
          split.parts.map((p) => p.amount),
          split.remainder !== undefined,
        );
  if (!amounts) return null;
  const targets = split.by === 'amount' && split.remainder ? [...split.parts, split.remainder] : split.parts;
  return amounts.map((amount, i) => {
    const t = targets[i];
    return {
      amount,
      categorySlug: t.categorySlug && refs.categories.has(t.categorySlug) ? t.categorySlug : null,
      tags: [...new Set(t.tags ?? [])].filter((g) => refs.tags.has(g)),
      note: t.note ?? null,
    };
  });
}

// Field by field: jsonb hands keys back in its own order, so the stored parts never stringify alike.
function sameSplits(a: readonly StoredSplitPart[], b: readonly StoredSplitPart[] | null): boolean {
  return (
    b !== null &&
    a.length === b.length &&
    a.every(
      (p, i) =>
        p.amount === b[i].amount &&
        p.categorySlug === b[i].categorySlug &&
        p.note === b[i].note &&
        p.tags.length === b[i].tags.length &&
        p.tags.every((t, j) => t === b[i].tags[j]),
    )
  );
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Runs the rules in order on one row: each matching rule's actions, except on fields the user set by
 * hand, a later rule's over an earlier one's, until a rule that stops after itself. Returns the
 * change against the row's current values (null when nothing would change) and whether any matched.
 */
export function evaluate(
  rules: readonly CompiledRule[],
  row: RuleRow,
  refs: TeamReferences,
): { matched: boolean; change: RowChange | null } {
  const manual = row.manualFields.length ? new Set(row.manualFields) : NONE;
  const next = {
    categorySlug: row.categorySlug,
    note: row.note,
    status: row.status,
    assignedId: row.assignedId,
    recurring: row.recurring,
  };
  const tags = new Set(row.tags);
  let splits = row.splits;
  const sources: Partial<Record<RuleField, FieldSource>> = {};
  let matched = false;
  const index = indexOf(rules);
  index.mark(row);
  for (let i = 0; i < rules.length; i++) {
    if (!index.may(i)) continue;
    const compiled = rules[i];
    const why = matchRule(compiled, row);
    if (why === null) continue;
    matched = true;
    const { rule } = compiled;
    const source: FieldSource = { by: 'rule', ruleId: rule.id, ruleName: rule.name, explanation: `Rule '${rule.name}' matched: ${why}` };
    const a = rule.actions;
    const setField = <K extends keyof typeof next>(field: K, value: (typeof next)[K] | undefined, valid = true) => {
      if (value === undefined || manual.has(field) || !valid) return;
      next[field] = value;
      sources[field] = source;
    };
    setField('categorySlug', a.categorySlug, a.categorySlug == null || refs.categories.has(a.categorySlug));
    setField('note', a.note);
    setField('status', a.status);
    setField('assignedId', a.assignedId, a.assignedId == null || refs.members.has(a.assignedId));
    setField('recurring', a.recurring);
    if (!manual.has('tags') && (a.addTags || a.removeTags)) {
      for (const t of a.addTags ?? []) if (refs.tags.has(t)) tags.add(t);
      for (const t of a.removeTags ?? []) tags.delete(t);
      sources.tags = source;
    }
    if (a.split && !manual.has('splits')) {
      const parts = splitParts(a.split, row, refs);
      if (parts) {
        splits = parts;
        sources.splits = source;
      }
    }
    if (rule.stopAfter) break;
  }
  const change: RowChange = { id: row.id, set: {}, addTags: [], removeTags: [], sources: {} };
  for (const field of ['categorySlug', 'note', 'status', 'assignedId', 'recurring'] as const) {
    if (next[field] !== row[field]) {
      (change.set as Record<string, unknown>)[field] = next[field];
      change.sources[field] = sources[field];
    }
  }
  if (splits && !sameSplits(splits, row.splits)) {
    change.set.splits = splits;
    change.sources.splits = sources.splits;
  }
  const had = row.tags.length ? new Set(row.tags) : NONE;
  change.addTags = [...tags].filter((t) => !had.has(t));
  change.removeTags = row.tags.filter((t) => !tags.has(t));
  if (change.addTags.length || change.removeTags.length) change.sources.tags = sources.tags;
  const changed = Object.keys(change.set).length > 0 || change.addTags.length > 0 || change.removeTags.length > 0;
  return { matched, change: changed ? change : null };
}
