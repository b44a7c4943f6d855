import type { Knex } from 'knex';
import { readTogether, type Db } from '../../db/knex';
import { Category, RULE_FIELDS, TeamMember, Tag, TransactionRule, type FieldSource, type RuleField } from '../../db/models';
import {
  compileRules,
  evaluate,
  linksRead,
  type CompiledRule,
  type LinksRead,
  type RowChange,
  type RuleRow,
  type StoredRule,
  type TeamReferences,
} from './engine';
import type { RuleConditions } from './schema';

/** The team's rules as stored, in the order they run: enabled ones only unless `ruleId` names one. */
export async function loadRules(db: Db, teamId: string, ruleId?: string): Promise<StoredRule[]> {
  const q = TransactionRule.query(db).where({ teamId }).orderBy(['priority', 'createdAt', 'id']);
  if (ruleId) q.where({ id: ruleId });
  else q.where({ enabled: true });
  return (await q).map((r) => ({
    id: r.id,
    name: r.name,
    stopAfter: r.stopAfter,
    conditions: r.conditions as RuleConditions,
    actions: r.actions,
  }));
}

/** The team's categories, tags and members as they are now: actions naming a deleted one are skipped. */
export async function loadReferences(db: Db, teamId: string): Promise<TeamReferences> {
  const [categories, tags, members] = await readTogether(db, [
    () => Category.query(db).where({ teamId }).select('slug'),
    () => Tag.query(db).where({ teamId }).select('id'),
    () => TeamMember.query(db).where({ teamId }).select('userId'),
  ]);
  return {
    categories: new Set(categories.map((c) => c.slug)),
    tags: new Set(tags.map((t) => t.id)),
    members: new Set(members.map((m) => m.userId)),
  };
}

/** Each transaction's own columns as a RuleRow, on `transactions as t`: `withLinks` adds its tags and attachments. */
export const RULE_ROW_COLUMNS = `t.id, t.name, t.description, t.counterparty_name as "counterpartyName", t.merchant_name as "merchantName",
  t.provider_category as "providerCategory", t.amount, t.currency, t.bank_account_id as "bankAccountId", t.date,
  t.category_slug as "categorySlug", t.note, t.status, t.assigned_id as "assignedId", t.recurring,
  t.splits, t.manual_fields as "manualFields"`;

/**
 * What conditions read of each transaction (a MatchRow), on `transactions as t`. Whether a file is
 * attached is looked up only when a condition asks (`linksRead`); otherwise no condition reads
 * `hasAttachment` and it is false.
 */
export const matchRowColumns = (readsAttachments: boolean) => `t.id, t.name, t.description, t.counterparty_name as "counterpartyName",
  t.merchant_name as "merchantName", t.provider_category as "providerCategory", t.amount, t.currency,
  t.bank_account_id as "bankAccountId", t.date,
  ${readsAttachments ? 'exists (select 1 from transaction_attachments a where a.team_id = t.team_id and a.transaction_id = t.id)' : 'false'} as "hasAttachment"`;

export type OwnColumns = Omit<RuleRow, 'tags' | 'hasAttachment'>;

/**
 * The rows with their tags and whether a file is attached, as far as the rules read them (`linksRead`):
 * one query for each for the whole batch (a subquery of each per row was half of what reading a batch
 * cost), none for what no rule reads. Tags no action adds or removes are left empty, and
 * `hasAttachment` false when no condition asks: the rules' change is the same either way.
 */
export async function withLinks(db: Db, teamId: string, rows: readonly OwnColumns[], links: LinksRead): Promise<RuleRow[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const tagsOf = new Map<string, string[]>();
  if (links.tags) {
    const { rows: tags } = await db.raw<{ rows: { id: string; tags: string[] }[] }>(
      `select transaction_id as id, array_agg(tag_id::text) as tags from transaction_tags
        where team_id = ? and transaction_id = any(?::uuid[]) group by transaction_id`,
      [teamId, ids],
    );
    for (const t of tags) tagsOf.set(t.id, t.tags);
  }
  const attached = new Set<string>();
  if (links.attachments) {
    const { rows: files } = await db.raw<{ rows: { id: string }[] }>(
      `select distinct transaction_id as id from transaction_attachments where team_id = ? and transaction_id = any(?::uuid[])`,
      [teamId, ids],
    );
    for (const f of files) attached.add(f.id);
  }
  return rows.map((r) => ({ ...r, tags: tagsOf.get(r.id) ?? [], hasAttachment: attached.has(r.id) }));
}

/** Transactions by id as the rules read them; `lock` locks them for the change (in id order, so two writers never deadlock). */
export async function ruleRowsById(
  db: Db,
  teamId: string,
  ids: readonly string[],
  opts: { lock: boolean; links: LinksRead },
): Promise<RuleRow[]> {
  const { rows } = await db.raw<{ rows: OwnColumns[] }>(
    `select ${RULE_ROW_COLUMNS} from transactions t where t.team_id = ? and t.id = any(?::uuid[])${opts.lock ? ' order by t.id for update of t' : ''}`,
    [teamId, [...ids]],
  );
  return withLinks(db, teamId, rows, opts.links);
}

/**
 * Writes the changes the rules chose, three statements however many rows: the fields (and why each
 * was set) from one JSON parameter, then the tags added and removed.
 */
export async function writeChanges(db: Db, teamId: string, changes: readonly RowChange[]): Promise<void> {
  if (!changes.length) return;
  const scalar = changes.filter((c) => Object.keys(c.set).length);
  if (scalar.length) {
    // A key present in `set` (JSON null included) is a change; `->` gives SQL null only for a missing key.
    await db.raw(
      `update transactions t set
         category_slug = case when c.set -> 'categorySlug' is null then t.category_slug else c.set ->> 'categorySlug' end,
         note = case when c.set -> 'note' is null then t.note else c.set ->> 'note' end,
         status = case when c.set -> 'status' is null then t.status else c.set ->> 'status' end,
         assigned_id = case when c.set -> 'assignedId' is null then t.assigned_id else (c.set ->> 'assignedId')::uuid end,
         recurring = case when c.set -> 'recurring' is null then t.recurring else (c.set ->> 'recurring')::boolean end,
         splits = case when c.set -> 'splits' is null then t.splits else c.set -> 'splits' end,
         field_sources = t.field_sources || c.sources,
         updated_at = now()
       from jsonb_to_recordset(?::jsonb) as c(id uuid, set jsonb, sources jsonb)
       where t.team_id = ? and t.id = c.id`,
      [JSON.stringify(scalar.map((c) => ({ id: c.id, set: c.set, sources: c.sources }))), teamId],
    );
  }
  const tagSources = changes.filter((c) => (c.addTags.length || c.removeTags.length) && !Object.keys(c.set).length);
  if (tagSources.length) {
    await db.raw(
      `update transactions t set field_sources = t.field_sources || c.sources, updated_at = now()
         from jsonb_to_recordset(?::jsonb) as c(id uuid, sources jsonb) where t.team_id = ? and t.id = c.id`,
      [JSON.stringify(tagSources.map((c) => ({ id: c.id, sources: c.sources }))), teamId],
    );
  }
  const added = changes.flatMap((c) => c.addTags.map((g) => ({ t: c.id, g })));
  if (added.length) {
    await db.raw(
      `insert into transaction_tags (team_id, transaction_id, tag_id)
       select ?, x.t, x.g from jsonb_to_recordset(?::jsonb) as x(t uuid, g uuid)
       on conflict (transaction_id, tag_id) do nothing`,
      [teamId, JSON.stringify(added)],
    );
  }
  const removed = changes.flatMap((c) => c.removeTags.map((g) => ({ t: c.id, g })));
  if (removed.length) {
    await db.raw(
      `delete from transaction_tags tt using jsonb_to_recordset(?::jsonb) as x(t uuid, g uuid)
        where tt.team_id = ? and tt.transaction_id = x.t and tt.tag_id = x.g`,
      [JSON.stringify(removed), teamId],
    );
  }
}

/** What the rules made of a batch: rows read, rows some rule matched, and the changes. */
export interface Evaluated {
  matched: number;
  changes: RowChange[];
}

export function evaluateRows(rules: readonly CompiledRule[], rows: readonly RuleRow[], refs: TeamReferences): Evaluated {
  let matched = 0;
  const changes: RowChange[] = [];
  for (const row of rows) {
    const r = evaluate(rules, row, refs);
    if (r.matched) matched++;
    if (r.change) changes.push(r.change);
  }
  return { matched, changes };
}

/**
 * The team's enabled rules run on transactions just inserted, in the inserting transaction and before
 * their `transaction.created` is emitted, so the event carries what the rules set. The rules are read
 * and compiled once per call (a sync page, an import batch); a team without rules pays one query.
 * Returns how many rows the rules changed.
 */
export async function applyRulesToNew(
  trx: Knex.Transaction,
  teamId: string,
  ids: readonly string[],
  loaded?: RulesForNew,
): Promise<number> {
  if (!ids.length) return 0;
  const { rules, refs } = loaded ?? (await loadRulesForNew(trx, teamId));
  if (!rules.length || !refs) return 0;
  const rows = await ruleRowsById(trx, teamId, ids, { lock: false, links: linksRead(rules) });
  const { changes } = evaluateRows(rules, rows, refs);
  await writeChanges(trx, teamId, changes);
  return changes.length;
}

/** What applyRulesToNew reads of the team: its enabled rules, compiled, and what they refer to (none without rules). */
export interface RulesForNew {
  rules: CompiledRule[];
  refs: TeamReferences | null;
}

export async function loadRulesForNew(db: Db, teamId: string): Promise<RulesForNew> {
  const rules = await loadRules(db, teamId);
  if (!rules.length) return { rules: [], refs: null };
  return { rules: compileRules(rules), refs: await loadReferences(db, teamId) };
}

/** Whether the team has an enabled rule: an import inserts by the thousand and takes the fast path without. */
export async function hasEnabledRules(db: Db, teamId: string): Promise<boolean> {
  return !!(await TransactionRule.query(db).findOne({ teamId, enabled: true }).select('id'));
}

const BY_HAND: FieldSource = { by: 'user', ruleId: null, ruleName: null, explanation: 'Set by hand' };

/** The rule-settable fields among a user's changes (`tags` for `tags`, `addTags` or `removeTags`). */
export function fieldsSetByHand(changes: Record<string, unknown>): RuleField[] {
  const fields = RULE_FIELDS.filter((f) => changes[f] !== undefined);
  if ((changes.addTags !== undefined || changes.removeTags !== undefined) && !fields.includes('tags')) fields.push('tags');
  return fields;
}

/** What a new row records of the fields its creator gave: set by hand, which no rule will change. */
export function setByHandColumns(fields: readonly RuleField[]): { manualFields: string[]; fieldSources: Record<string, FieldSource> } {
  return { manualFields: [...fields], fieldSources: Object.fromEntries(fields.map((f) => [f, BY_HAND])) };
}

/** A user changed these fields on these transactions: from now on no rule changes them there. */
export async function markSetByHand(db: Db, teamId: string, ids: readonly string[], fields: readonly RuleField[]): Promise<void> {
  if (!ids.length || !fields.length) return;
  await db.raw(
    `update transactions set manual_fields = array(select distinct unnest(manual_fields || ?::text[]) order by 1),
       field_sources = field_sources || ?::jsonb
     where team_id = ? and id = any(?::uuid[])`,
    [[...fields], JSON.stringify(setByHandColumns(fields).fieldSources), teamId, [...ids]],
  );
}
