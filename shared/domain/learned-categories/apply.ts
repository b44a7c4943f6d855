import type { Knex } from 'knex';
import { readTogether, type Db } from '../../db/knex';
import { Category, Team, type FieldSource, type RuleField, type StoredSplitPart, type SuggestedCategory } from '../../db/models';
import { applyRulesToNew, loadRulesForNew, type RulesForNew } from '../transaction-rules/apply';
import { evaluate, type MatchRow, type RuleRow } from '../transaction-rules/engine';
import { LearnedModel, type LearnedExample, type Suggestion } from './model';
import { merchantText } from './normalise';
import { providerCategorySlug } from './provider-categories';

/** The confidence from which a learned category is applied rather than only suggested, when the team set none. */
export const DEFAULT_LEARNED_THRESHOLD = 0.85;

/** The newest categorised transactions the learner reads: enough for every merchant a team pays. */
const HISTORY = 10_000;

/**
 * Every new transaction's category, in the inserting transaction and before its
 * `transaction.created` is emitted: the team's rules first; then, for the rows still without a
 * category that no one chose (not set by hand, not by a rule), what the team's similar past
 * transactions say, applied from the team's threshold and only suggested below it; then the bank's
 * own category, mapped onto the tree. The learner is loaded once per call (a sync page, an import
 * batch, a created transaction), never per row.
 */
export async function categoriseNew(
  trx: Knex.Transaction,
  teamId: string,
  ids: readonly string[],
  loaded?: CategorisingInputs,
): Promise<void> {
  if (!ids.length) return;
  await applyRulesToNew(trx, teamId, ids, loaded?.rules);
  await learnCategories(trx, teamId, ids, loaded?.learner);
}

/** What categoriseNew reads of the team, for a caller to read before its insert. */
export interface CategorisingInputs {
  rules: RulesForNew;
  learner: LearnerInputs;
}

/**
 * Read before the insert, so that between the insert and the commit only the new rows are read and
 * written: a new row's totals (transaction_daily_totals) stay locked until the commit, and every
 * writer of that team's day, currency and category waits for it.
 */
export async function loadCategorisingInputs(db: Db, teamId: string): Promise<CategorisingInputs> {
  const [rules, learner] = await readTogether(db, [() => loadRulesForNew(db, teamId), () => loadLearnerInputs(db, teamId)]);
  return { rules, learner };
}

/** A transaction about to be inserted (its id chosen already), as the rules and the learner read it. */
export type IncomingRow = Omit<MatchRow, 'hasAttachment'> & Pick<RuleRow, 'status'>;

/** What a new transaction is inserted with: the fields its rules and learned categories set, and why. */
export interface Categorised {
  categorySlug: string | null;
  note: string | null;
  status: string;
  assignedId: string | null;
  recurring: boolean;
  splits: StoredSplitPart[] | null;
  tags: string[];
  fieldSources: Partial<Record<RuleField, FieldSource>>;
  suggestedCategory: SuggestedCategory | null;
}

/** A new row as nothing categorised it: the bank's status and no other field set. */
export const uncategorised = (status: string): Categorised => ({
  categorySlug: null,
  note: null,
  status,
  assignedId: null,
  recurring: false,
  splits: null,
  tags: [],
  fieldSources: {},
  suggestedCategory: null,
});

/** categoriseNew for rows not yet inserted: each row's values, in memory, by its id. */
export interface IncomingCategoriser {
  categorise(rows: readonly IncomingRow[]): Map<string, Categorised>;
}

/**
 * What categoriseNew does after an insert, done before it, so a synced row is written once: the
 * team's rules, then learned categories, then the bank's category, on a row that has nothing yet (no
 * tags, no attachment, no field set by hand, as any row just inserted). What it needs is read once
 * (a sync pass keeps it for all its pages); each batch's rows that the rules categorised join the
 * learner, as they would once inserted, so the rest of the batch and later batches learn from them.
 * A row that merges with an existing one is not done here: the merge decides what it carries
 * (shared/domain/bank-connections/sync.ts).
 */
export async function loadCategoriser(db: Db, teamId: string): Promise<IncomingCategoriser> {
  const {
    rules: { rules: compiled, refs },
    learner: { model, threshold, categories },
  } = await loadCategorisingInputs(db, teamId);
  return {
    categorise(rows) {
      const out = new Map<string, Categorised>();
      const chosen: LearnedExample[] = [];
      for (const row of rows) {
        const c = uncategorised(row.status);
        if (compiled.length && refs) {
          // Field by field rather than spread: the spread object is slow for every rule to read.
          const bare: RuleRow = {
            id: row.id,
            name: row.name,
            description: row.description,
            counterpartyName: row.counterpartyName,
            merchantName: row.merchantName,
            providerCategory: row.providerCategory,
            amount: row.amount,
            currency: row.currency,
            bankAccountId: row.bankAccountId,
            date: row.date,
            status: row.status,
            hasAttachment: false,
            categorySlug: null,
            note: null,
            assignedId: null,
            recurring: false,
            tags: [],
            splits: null,
            manualFields: [],
          };
          const { change } = evaluate(compiled, bare, refs);
          if (change) {
            Object.assign(c, change.set);
            c.tags = change.addTags;
            c.fieldSources = { ...change.sources };
          }
        }
        if (c.categorySlug !== null && c.fieldSources.categorySlug)
          chosen.push({
            text: merchantText(row),
            accountId: row.bankAccountId,
            amount: row.amount,
            categorySlug: c.categorySlug,
            count: 1,
            samples: [{ id: row.id, name: row.name }],
          });
        out.set(row.id, c);
      }
      if (chosen.length) model.add(chosen);
      for (const row of rows) {
        const c = out.get(row.id);
        // As learnCategories: only a category nobody chose (a rule clearing one chose too).
        if (!c || c.categorySlug !== null || c.fieldSources.categorySlug) continue;
        const choice = learnedChoice(row, model, threshold, categories);
        if (!choice) continue;
        c.categorySlug = choice.slug;
        if (choice.source) c.fieldSources.categorySlug = choice.source;
        c.suggestedCategory = choice.suggested;
      }
      return out;
    },
  };
}

interface Uncategorised {
  id: string;
  name: string;
  merchantName: string | null;
  counterpartyName: string | null;
  amount: string;
  bankAccountId: string | null;
  providerCategory: string | null;
}

/** SQL: nobody chose `t`'s category, neither a person (by hand) nor automation with its source recorded. */
export const NOBODY_CHOSE_CATEGORY = `t.field_sources -> 'categorySlug' is null and not ('categorySlug' = any(t.manual_fields))`;

/** Learned, then provider, categories for the rows of `ids` nobody categorised. */
export async function learnCategories(
  trx: Knex.Transaction,
  teamId: string,
  ids: readonly string[],
  loaded?: LearnerInputs,
): Promise<number> {
  const { rows } = await trx.raw<{ rows: Uncategorised[] }>(
    `select t.id, t.name, t.merchant_name as "merchantName", t.counterparty_name as "counterpartyName", t.amount,
            t.bank_account_id as "bankAccountId", t.provider_category as "providerCategory"
       from transactions t
      where t.team_id = ? and t.id = any(?::uuid[]) and t.category_slug is null
        and ${NOBODY_CHOSE_CATEGORY}`,
    [teamId, [...ids]],
  );
  if (!rows.length) return 0;
  const { model, threshold, categories } = loaded ?? (await loadLearnerInputs(trx, teamId));
  const changes: ({ id: string } & LearnedChoice)[] = [];
  for (const row of rows) {
    const choice = learnedChoice(row, model, threshold, categories);
    if (choice) changes.push({ id: row.id, ...choice });
  }
  if (!changes.length) return 0;
  // Only where the category is still empty: nothing between the read and this write may be overwritten.
  await trx.raw(
    `update transactions t set
       category_slug = coalesce(c.slug, t.category_slug),
       field_sources = case when c.source is null then t.field_sources else t.field_sources || jsonb_build_object('categorySlug', c.source) end,
       suggested_category = c.suggested
     from jsonb_to_recordset(?::jsonb) as c(id uuid, slug text, source jsonb, suggested jsonb)
     where t.team_id = ? and t.id = c.id and t.category_slug is null`,
    [JSON.stringify(changes), teamId],
  );
  return changes.filter((c) => c.slug).length;
}

/** What learned categories (or the bank's, mapped) give a transaction nobody categorised: a category with why, a suggestion, or both. */
export interface LearnedChoice {
  slug: string | null;
  source: FieldSource | null;
  suggested: SuggestedCategory | null;
}

type LearnedInput = Pick<Uncategorised, 'name' | 'merchantName' | 'counterpartyName' | 'bankAccountId' | 'providerCategory'> & {
  amount: number | string;
};

/**
 * The learned category from the team's threshold, else the bank's category mapped onto the tree
 * (with what was learned below the threshold kept as a suggestion), else only the suggestion; null
 * when there is nothing to say. Pure: the same for a row before its insert and one read back after.
 */
export function learnedChoice(
  row: LearnedInput,
  model: LearnedModel,
  threshold: number,
  categories: ReadonlyMap<string, string>,
): LearnedChoice | null {
  const learned = model.size ? model.suggest({ text: merchantText(row), accountId: row.bankAccountId, amount: Number(row.amount) }) : null;
  const name = learned && categories.get(learned.categorySlug);
  if (learned && name && learned.confidence >= threshold)
    return { slug: learned.categorySlug, source: learnedSource(learned), suggested: null };
  const suggested = learned && name ? { slug: learned.categorySlug, ...explainLearned(learned), neighbours: learned.neighbours } : null;
  const mapped = providerCategorySlug(row.providerCategory);
  const mappedName = mapped && categories.get(mapped);
  if (mapped && mappedName && row.providerCategory)
    return { slug: mapped, source: providerSource(row.providerCategory, mappedName), suggested };
  return suggested ? { slug: null, source: null, suggested } : null;
}

/** The sources of the categories the learner learns from: a user's, a rule's, and those from before sources were recorded. */
const LEARNED_FROM = [`= 'user'`, `= 'rule'`, 'is null'];

/**
 * The team's newest choices (by a user, a rule, or before sources were recorded), grouped in the
 * database by merchant text, account, direction, amount band (model.ts's amountBand) and category,
 * so a page of a sync reads a few hundred groups rather than ten thousand rows. What was learned or
 * mapped is not learned from again: a mistake would teach itself. Read as one newest-first range of
 * transactions_categorized_by_idx per source (the index keys categorised rows by their category's
 * source, then date), merged.
 */
export async function loadModel(db: Db, teamId: string): Promise<LearnedModel> {
  const { rows } = await db.raw<{ rows: (Omit<LearnedExample, 'samples'> & { ids: string[]; names: string[] })[] }>(
    `with history as (
       select * from (${LEARNED_FROM.map(
         (source) => `(select t.id, t.name, t.date, t.amount, t.bank_account_id, t.category_slug,
                 coalesce(nullif(t.merchant_name, ''), nullif(t.counterparty_name, ''), t.name) as text
            from transactions t
           where t.team_id = ? and t.category_slug is not null and (t.field_sources #>> '{categorySlug,by}') ${source}
           order by t.date desc, t.id desc
           limit ${HISTORY})`,
       ).join(' union all ')}) chosen
        order by date desc, id desc
        limit ${HISTORY})
     select lower(text) as text, bank_account_id as "accountId", avg(amount)::float8 as amount, category_slug as "categorySlug",
            count(*)::int as count, (array_agg(id::text order by date desc, id desc))[1:3] as ids,
            (array_agg(name order by date desc, id desc))[1:3] as names
       from history
      group by lower(text), bank_account_id, sign(amount), floor(2 * log(2, abs(amount) + 1)), category_slug`,
    LEARNED_FROM.map(() => teamId),
  );
  return new LearnedModel(rows.map(({ ids, names, ...r }) => ({ ...r, samples: ids.map((id, i) => ({ id, name: names[i] })) })));
}

/** What the learner reads of the team: its model, threshold and category names. */
export interface LearnerInputs {
  model: LearnedModel;
  threshold: number;
  categories: Map<string, string>;
}

async function loadLearnerInputs(db: Db, teamId: string): Promise<LearnerInputs> {
  const [model, threshold, categories] = await readTogether(db, [
    () => loadModel(db, teamId),
    () => teamThreshold(db, teamId),
    () => categoryNames(db, teamId),
  ]);
  return { model, threshold, categories };
}

export async function teamThreshold(db: Db, teamId: string): Promise<number> {
  return (await Team.query(db).findById(teamId).select('learnedCategoryThreshold'))?.learnedCategoryThreshold ?? DEFAULT_LEARNED_THRESHOLD;
}

export async function categoryNames(db: Db, teamId: string): Promise<Map<string, string>> {
  return new Map((await Category.query(db).where({ teamId }).select('slug', 'name')).map((c) => [c.slug, c.name]));
}

/** "Learned from 4 similar transactions (e.g. 'GitHub'), confidence 0.93". */
function explainLearned(s: Suggestion): { confidence: number; explanation: string } {
  const confidence = Math.round(s.confidence * 100) / 100;
  const example = s.neighbours.at(0);
  const similar = `${s.support} similar transaction${s.support === 1 ? '' : 's'}${example ? ` (e.g. '${example.name}')` : ''}`;
  return { confidence, explanation: `Learned from ${similar}, confidence ${confidence.toFixed(2)}` };
}

function learnedSource(s: Suggestion): FieldSource {
  return { by: 'learned', ruleId: null, ruleName: null, ...explainLearned(s), neighbours: s.neighbours };
}

function providerSource(providerCategory: string, categoryName: string): FieldSource {
  return {
    by: 'provider',
    ruleId: null,
    ruleName: null,
    providerCategory,
    explanation: `The bank's category '${providerCategory}' maps to '${categoryName}'`,
  };
}

/** Whether the team has categorised anything to learn from (an import then goes through categoriseNew). */
export async function hasCategoryHistory(db: Db, teamId: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(`select 1 from transactions where team_id = ? and category_slug is not null limit 1`, [
    teamId,
  ]);
  return rows.length > 0;
}
