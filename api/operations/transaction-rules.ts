import {
  applyRuleBody,
  createRuleBody,
  ruleIdParams,
  ruleRunSchema,
  runIdParams,
  transactionRuleSchema,
  updateRuleBody,
} from '../../shared/domain/transaction-rules/schema';
import {
  applyRule,
  createRule,
  deleteRule,
  getRule,
  getRuleRun,
  listRules,
  updateRule,
} from '../../shared/domain/transaction-rules/service';
import { all, mutation, none, one, query } from './declare';

/** Rules that categorise and annotate transactions as they arrive (sync, import, create) and, on request, existing ones. */
export const transactionRules = [
  query('transactionRules.get', 'GET /transaction-rules', ['transactions.read'], {
    summary: 'List transaction rules',
    description: 'Every rule of the team in the order they run: ascending `priority`, then by creation (not paginated).',
    output: all(transactionRuleSchema),
    run: ({ principal }, { db }) => listRules(db, principal.teamId),
  }),
  query('transactionRules.getById', 'GET /transaction-rules/:id', ['transactions.read'], {
    summary: 'A transaction rule',
    input: ruleIdParams,
    output: one(transactionRuleSchema),
    run: ({ principal, input }, { db }) => getRule(db, principal.teamId, input.id),
  }),
  mutation('transactionRules.create', 'POST /transaction-rules', ['transactions.write'], {
    status: 201,
    summary: 'Create a transaction rule',
    description:
      'Conditions are OR groups of AND conditions (`{"any": [{"all": [...]}]}`); the enabled rules run on every new transaction (bank sync, import, manual create) in priority order, a later rule\'s action over an earlier one\'s, until a rule with `stopAfter` matches. A field a user set by hand is never changed. A regular expression must be at most 200 characters and free of nested quantifiers, repeated alternatives, backreferences and lookaround (400 naming the condition otherwise); it runs on a linear-time engine. A category, tag, account or member that is not the team\'s is a 400 naming the field.',
    input: createRuleBody,
    output: one(transactionRuleSchema),
    run: ({ principal, input }, { db }) => createRule(db, principal.teamId, input),
  }),
  mutation('transactionRules.update', 'PATCH /transaction-rules/:id', ['transactions.write'], {
    body: 'data',
    summary: 'Update a transaction rule',
    description: 'Changes apply to transactions that arrive from now on; `POST /transaction-rules/{id}/apply` applies it to existing ones.',
    input: ruleIdParams.extend({ data: updateRuleBody }),
    output: one(transactionRuleSchema),
    run: ({ principal, input }, { db }) => updateRule(db, principal.teamId, input.id, input.data),
  }),
  mutation('transactionRules.delete', 'DELETE /transaction-rules/:id', ['transactions.write'], {
    summary: 'Delete a transaction rule',
    description: 'What it set stays; its runs are deleted with it.',
    input: ruleIdParams,
    output: none,
    run: ({ principal, input }, { db }) => deleteRule(db, principal.teamId, input.id),
  }),
  mutation('transactionRules.apply', 'POST /transaction-rules/:id/apply', ['transactions.write'], {
    status: 202,
    body: 'data',
    summary: 'Apply a rule to existing transactions',
    description:
      'Starts an ApplyRules run (workflow `apply-rules:<runId>`) of this rule, enabled or not, over the transactions `from`/`to` and `filter` select, oldest first in batches. Fields users set by hand are left alone. With `dryRun` it only counts what would change. Follow it with `GET /transaction-rules/runs/{runId}`.',
    input: ruleIdParams.extend({ data: applyRuleBody }),
    output: one(ruleRunSchema),
    run: ({ principal, input }, { db, temporal }) =>
      applyRule({ db, temporal }, { teamId: principal.teamId, userId: principal.userId }, input.id, input.data),
  }),
  query('transactionRules.getRun', 'GET /transaction-rules/runs/:runId', ['transactions.read'], {
    summary: 'A rule run and its progress',
    description: '`status` and the counts so far: transactions read (`scanned`), matched, and changed (in a dry run, that would change).',
    input: runIdParams,
    output: one(ruleRunSchema),
    run: ({ principal, input }, { db }) => getRuleRun(db, principal.teamId, input.runId),
  }),
];
