import type { Db } from '../../db/knex';
import { toIso } from '../../db/timestamps';
import { BankAccount, Category, TeamMember, Tag, TransactionRule, TransactionRuleRun } from '../../db/models';
import { badRequest, notFound, workflowServiceUnreachable, type FieldProblem } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import { startApplyRules } from '../../temporal/apply-rules/calls';
import type { ApplyRuleBody, CreateRuleBody, RuleActions, RuleConditions, RuleRunDto, TransactionRuleDto, UpdateRuleBody } from './schema';
import { runToDto } from './run';
import { referenceProblems } from '../transactions/splits';

const toDto = (r: TransactionRule): TransactionRuleDto => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  priority: r.priority,
  stopAfter: r.stopAfter,
  conditions: r.conditions as RuleConditions,
  actions: r.actions,
  createdAt: toIso(r.createdAt),
  updatedAt: toIso(r.updatedAt),
});

/**
 * Every category, tag, account and member a rule names must be the team's: a 400 naming each field
 * that is not (`actions.categorySlug`, `conditions.any.0.all.1.in`), before anything is written.
 */
async function assertRuleReferences(db: Db, teamId: string, rule: { conditions?: RuleConditions; actions?: RuleActions }) {
  const problems: FieldProblem[] = [];
  const a = rule.actions;
  if (a?.categorySlug && !(await Category.query(db).findOne({ teamId, slug: a.categorySlug }).select('id'))) {
    problems.push({ field: 'actions.categorySlug', message: 'no such category in your team' });
  }
  if (a?.assignedId && !(await TeamMember.query(db).findOne({ teamId, userId: a.assignedId }).select('id'))) {
    problems.push({ field: 'actions.assignedId', message: 'not a member of your team' });
  }
  for (const key of ['addTags', 'removeTags'] as const) {
    const ids = a?.[key];
    if (!ids) continue;
    const found = new Set((await Tag.query(db).where({ teamId }).whereIn('id', ids).select('id')).map((t) => t.id));
    const missing = ids.filter((t) => !found.has(t));
    if (missing.length) problems.push({ field: `actions.${key}`, message: `no such tags in your team: ${missing.join(', ')}` });
  }
  if (a?.split) {
    const targets = a.split.by === 'amount' && a.split.remainder ? [...a.split.parts, a.split.remainder] : a.split.parts;
    problems.push(...(await referenceProblems(db, teamId, targets, 'actions.split.parts')));
  }
  for (const [g, group] of (rule.conditions?.any ?? []).entries()) {
    for (const [c, cond] of group.all.entries()) {
      if (cond.field !== 'bankAccount') continue;
      const found = new Set((await BankAccount.query(db).where({ teamId }).whereIn('id', cond.in).select('id')).map((b) => b.id));
      const missing = cond.in.filter((id) => !found.has(id));
      if (missing.length)
        problems.push({ field: `conditions.any.${g}.all.${c}.in`, message: `no such bank accounts in your team: ${missing.join(', ')}` });
    }
  }
  if (problems.length) throw badRequest(`Invalid references: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, problems);
}

/** A team has few rules: the list is not paginated, in the order they run. */
export async function listRules(db: Db, teamId: string): Promise<TransactionRuleDto[]> {
  return (await TransactionRule.query(db).where({ teamId }).orderBy(['priority', 'createdAt', 'id'])).map(toDto);
}

export async function getRule(db: Db, teamId: string, id: string): Promise<TransactionRuleDto> {
  const row = await TransactionRule.query(db).findOne({ teamId, id });
  if (!row) throw notFound(`Rule ${id} not found`);
  return toDto(row);
}

export async function createRule(db: Db, teamId: string, body: CreateRuleBody): Promise<TransactionRuleDto> {
  await assertRuleReferences(db, teamId, body);
  return toDto(
    await TransactionRule.query(db)
      .insert({ teamId, ...body })
      .returning('*'),
  );
}

export async function updateRule(db: Db, teamId: string, id: string, body: UpdateRuleBody): Promise<TransactionRuleDto> {
  await assertRuleReferences(db, teamId, body);
  const row = (
    await TransactionRule.query(db)
      .patch({ ...body, updatedAt: new Date() })
      .where({ teamId, id })
      .returning('*')
  ).at(0);
  if (!row) throw notFound(`Rule ${id} not found`);
  return toDto(row);
}

/** What the rule set stays on the transactions (their `categorySource` still names it); its runs go with it. */
export async function deleteRule(db: Db, teamId: string, id: string): Promise<void> {
  const n = await TransactionRule.query(db).delete().where({ teamId, id });
  if (!n) throw notFound(`Rule ${id} not found`);
}

/**
 * Starts an ApplyRules run of one rule over the team's existing transactions (`from`/`to` and
 * `filter` narrow them). The run row is committed first, so the run always finds it; a Temporal that
 * cannot be reached removes it again (503).
 */
export async function applyRule(
  deps: { db: Db; temporal: TemporalGateway },
  who: { teamId: string; userId: string | null },
  id: string,
  body: ApplyRuleBody,
): Promise<RuleRunDto> {
  const { db, temporal } = deps;
  const rule = await TransactionRule.query(db).findOne({ teamId: who.teamId, id });
  if (!rule) throw notFound(`Rule ${id} not found`);
  const filter = { ...body.filter, ...(body.from && { from: body.from }), ...(body.to && { to: body.to }) };
  const run = await TransactionRuleRun.query(db).insert({
    teamId: who.teamId,
    ruleId: id,
    dryRun: body.dryRun,
    filter,
    createdBy: who.userId,
  });
  try {
    await startApplyRules(
      temporal,
      { runId: run.id, teamId: who.teamId },
      { ruleName: rule.name, dryRun: body.dryRun, from: filter.from, to: filter.to },
    );
  } catch (err) {
    await TransactionRuleRun.query(db).deleteById(run.id);
    throw workflowServiceUnreachable(err);
  }
  return getRuleRun(db, who.teamId, run.id);
}

export async function getRuleRun(db: Db, teamId: string, runId: string): Promise<RuleRunDto> {
  const row = await TransactionRuleRun.query(db).findOne({ teamId, id: runId });
  if (!row) throw notFound(`Run ${runId} not found`);
  return runToDto(row);
}
