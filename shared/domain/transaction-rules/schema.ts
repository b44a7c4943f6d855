import { z } from 'zod';
import { RULE_RUN_STATUSES } from '../../db/models';
import { currencyCode } from '../common/currency';
import { MONEY_LIMIT } from '../common/money';
import { isoDate, pageSize } from '../common/query';
import { MAX_SPLIT_PARTS, transactionFilterBody } from '../transactions/schema';
import { toScaled } from '../transactions/split-amounts';
import { MAX_PATTERN_LENGTH, unsafePatternReason } from './regex';

export const TEXT_FIELDS = ['name', 'description', 'counterparty', 'providerCategory'] as const;
export const TEXT_OPERATORS = ['contains', 'equals', 'startsWith', 'regex'] as const;

const textCondition = z
  .object({
    field: z.enum(TEXT_FIELDS).meta({
      description:
        "`counterparty` matches the counterparty's or the merchant's name; `providerCategory` the bank's own category (bank-a's `personal_finance_category`).",
    }),
    operator: z.enum(TEXT_OPERATORS),
    value: z
      .string()
      .min(1)
      .max(MAX_PATTERN_LENGTH)
      .meta({ description: `The text, or for \`regex\` a JavaScript pattern of at most ${MAX_PATTERN_LENGTH} characters.` }),
    caseSensitive: z.boolean().default(false),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.operator !== 'regex') return;
    const reason = unsafePatternReason(c.value);
    if (reason) ctx.addIssue({ code: 'custom', path: ['value'], message: `regex refused: ${reason}` });
  });

const amountCondition = z
  .object({
    field: z.literal('amount'),
    sign: z.enum(['income', 'expense']).optional().meta({ description: '`income` (amount > 0) or `expense` (amount < 0).' }),
    min: z.number().nonnegative().optional().meta({ description: 'Smallest absolute amount, inclusive.' }),
    max: z.number().nonnegative().optional().meta({ description: 'Largest absolute amount, inclusive.' }),
  })
  .strict()
  .refine((c) => c.sign !== undefined || c.min !== undefined || c.max !== undefined, { message: 'give `sign`, `min` or `max`' })
  .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, { message: '`min` must not exceed `max`', path: ['min'] });

const currencyCondition = z.object({ field: z.literal('currency'), in: z.array(currencyCode).min(1).max(50) }).strict();
const accountCondition = z
  .object({ field: z.literal('bankAccount'), in: z.array(z.uuid()).min(1).max(100).meta({ description: 'Bank account ids of the team.' }) })
  .strict();
const dateCondition = z
  .object({ field: z.literal('date'), from: isoDate.optional(), to: isoDate.optional() })
  .strict()
  .refine((c) => c.from !== undefined || c.to !== undefined, { message: 'give `from` or `to`' })
  .refine((c) => !c.from || !c.to || c.from <= c.to, { message: '`from` must not be after `to`', path: ['from'] });
const attachmentCondition = z
  .object({ field: z.literal('hasAttachment'), value: z.boolean().meta({ description: 'true: a receipt or other file is attached.' }) })
  .strict();

export const ruleConditionSchema = z
  .discriminatedUnion('field', [textCondition, amountCondition, currencyCondition, accountCondition, dateCondition, attachmentCondition])
  .meta({
    id: 'TransactionRuleCondition',
    description:
      'One test on a transaction, chosen by `field`: text (`name`, `description`, `counterparty`, `providerCategory`) with `contains`, `equals`, `startsWith` or `regex`, case-insensitive unless `caseSensitive`; `amount` by sign and absolute range; `currency` and `bankAccount` in a list; `date` in a range; `hasAttachment`.',
  });
export type RuleCondition = z.infer<typeof ruleConditionSchema>;

export const ruleConditionsSchema = z
  .object({
    any: z
      .array(z.object({ all: z.array(ruleConditionSchema).min(1).max(20) }).strict())
      .min(1)
      .max(20),
  })
  .strict()
  .meta({
    id: 'TransactionRuleConditions',
    description:
      'Groups ORed together, each group a list of conditions ANDed: `{"any": [{"all": [A, B]}, {"all": [C]}]}` matches (A and B) or C.',
  });
export type RuleConditions = z.infer<typeof ruleConditionsSchema>;

/** What each part of a rule's split gets besides its amount. */
const splitTarget = {
  categorySlug: z.string().min(1).max(100).nullable().optional().meta({ description: 'Category slug of the team.' }),
  tags: z.array(z.uuid()).max(50).optional().meta({ description: 'Tag ids of the team.' }),
  note: z.string().max(5000).nullable().optional(),
};

const percentageSplit = z
  .object({
    by: z.literal('percentage'),
    parts: z
      .array(
        z
          .object({
            percentage: z.number().positive().max(100).meta({ description: 'Share of the amount, up to 4 decimals.' }),
            ...splitTarget,
          })
          .strict(),
      )
      .min(2)
      .max(MAX_SPLIT_PARTS),
  })
  .strict()
  .refine((s) => s.parts.reduce((sum, p) => sum + toScaled(p.percentage), 0n) === toScaled(100), {
    message: 'the percentages must add up to 100',
    path: ['parts'],
  });

const amountSplit = z
  .object({
    by: z.literal('amount'),
    parts: z
      .array(
        z
          .object({
            amount: z
              .number()
              .positive()
              .refine((n) => n < MONEY_LIMIT, 'must be below 10^15')
              .meta({ description: "Absolute amount; the part takes the transaction's sign." }),
            ...splitTarget,
          })
          .strict(),
      )
      .min(1)
      .max(MAX_SPLIT_PARTS - 1),
    remainder: z
      .object(splitTarget)
      .strict()
      .optional()
      .meta({ description: 'A last part for what the fixed parts leave of the amount (left out when they leave nothing).' }),
  })
  .strict()
  .refine((s) => s.parts.length + (s.remainder ? 1 : 0) >= 2, {
    message: 'give at least two parts, counting the remainder',
    path: ['parts'],
  });

export const ruleSplitSchema = z.discriminatedUnion('by', [percentageSplit, amountSplit]).meta({
  id: 'TransactionRuleSplit',
  description:
    "Splits a matching transaction into parts. `percentage`: shares adding up to 100, each rounded to the currency's minor unit with the units left over going to the parts that lost most to rounding, so they sum exactly. `amount`: fixed amounts and an optional `remainder` part for the rest. A transaction the split does not fit (fixed amounts above its amount, or short of it without a remainder; a part that would round to nothing) is left whole.",
});
export type RuleSplit = z.infer<typeof ruleSplitSchema>;

export const ruleActionsSchema = z
  .object({
    categorySlug: z.string().min(1).max(100).nullable().optional().meta({ description: 'Category slug of the team; null clears it.' }),
    addTags: z.array(z.uuid()).min(1).max(50).optional().meta({ description: 'Tag ids of the team to add.' }),
    removeTags: z.array(z.uuid()).min(1).max(50).optional().meta({ description: 'Tag ids of the team to remove.' }),
    assignedId: z.uuid().nullable().optional().meta({ description: 'A member of the team; null clears it.' }),
    note: z.string().max(5000).nullable().optional(),
    status: z
      .enum(['posted', 'completed', 'excluded', 'archived'])
      .optional()
      .meta({ description: '`excluded` marks the transaction excluded (hidden from lists and reports).' }),
    recurring: z.boolean().optional().meta({ description: 'Marks it recurring (or not).' }),
    split: ruleSplitSchema.optional(),
  })
  .strict()
  .refine((a) => Object.keys(a).length > 0, { message: 'give at least one action' })
  .meta({
    id: 'TransactionRuleActions',
    description:
      'What a matching rule does. A field the user set by hand on a transaction (its category, tags, assignee, note, status, recurring flag or split) is never changed by a rule.',
  });
export type RuleActions = z.infer<typeof ruleActionsSchema>;

export const transactionRuleSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    enabled: z.boolean(),
    priority: z.number().int().meta({ description: 'Rules run in ascending priority; ties in order of creation.' }),
    stopAfter: z.boolean().meta({ description: 'When this rule matches, no later rule runs on the transaction.' }),
    conditions: ruleConditionsSchema,
    actions: ruleActionsSchema,
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'TransactionRule', description: 'A rule that categorises and annotates transactions as they arrive, or on request.' });
export type TransactionRuleDto = z.infer<typeof transactionRuleSchema>;

const priority = z.number().int().min(-1_000_000).max(1_000_000);

export const createRuleBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    enabled: z.boolean().default(true),
    priority: priority.default(0),
    stopAfter: z.boolean().default(false),
    conditions: ruleConditionsSchema,
    actions: ruleActionsSchema,
  })
  .strict()
  .meta({ id: 'CreateTransactionRule' });
export type CreateRuleBody = z.infer<typeof createRuleBody>;

export const updateRuleBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    enabled: z.boolean().optional(),
    priority: priority.optional(),
    stopAfter: z.boolean().optional(),
    conditions: ruleConditionsSchema.optional(),
    actions: ruleActionsSchema.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateTransactionRule' });
export type UpdateRuleBody = z.infer<typeof updateRuleBody>;

export const ruleIdParams = z.object({ id: z.uuid().meta({ description: 'Rule id.' }) });

export const applyRuleBody = z
  .object({
    from: isoDate.optional().meta({ description: 'Earliest transaction date, inclusive.' }),
    to: isoDate.optional().meta({ description: 'Latest transaction date, inclusive.' }),
    filter: transactionFilterBody
      .optional()
      .meta({ description: 'Which transactions, as `GET /transactions` filters (default: every status except excluded and archived).' }),
    dryRun: z.boolean().default(false).meta({ description: 'Count what would change without changing anything.' }),
  })
  .strict()
  .refine((b) => !b.from || !b.to || b.from <= b.to, { message: '`from` must not be after `to`', path: ['from'] })
  .meta({ id: 'ApplyTransactionRule' });
export type ApplyRuleBody = z.infer<typeof applyRuleBody>;

export const ruleRunSchema = z
  .object({
    id: z.uuid(),
    ruleId: z.uuid(),
    dryRun: z.boolean(),
    status: z.enum(RULE_RUN_STATUSES),
    scanned: z.number().int().meta({ description: 'Transactions read so far.' }),
    matched: z.number().int().meta({ description: "Of those, how many the rule's conditions matched." }),
    changed: z.number().int().meta({ description: 'Of those, how many it changed (or, in a dry run, would change).' }),
    error: z.string().nullable(),
    workflowId: z.string().meta({ description: 'The ApplyRules run: `apply-rules:<id>`.' }),
    createdAt: z.iso.datetime(),
    completedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'TransactionRuleRun', description: 'An application of a rule to existing transactions, and its progress.' });
export type RuleRunDto = z.infer<typeof ruleRunSchema>;

export const runIdParams = z.object({ runId: z.uuid().meta({ description: 'Run id.' }) });
export const listRunsQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
});
