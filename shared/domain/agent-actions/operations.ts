import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { toIso } from '../../db/timestamps';
import { notFound } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import type { ResourceScope } from '../auth/scopes';
import { formatAmountWithCode } from '../currencies/money';
import { requestLlmCategoriesAfterArrival } from '../learned-categories/llm';
import { decide, getInboxItem, matchManually } from '../inbox/service';
import * as inboxSchema from '../inbox/schema';
import { applyInvoiceAction } from '../invoices/lifecycle';
import * as invoiceSchema from '../invoices/schema';
import { createInvoice, getInvoice } from '../invoices/service';
import { bulkUpdateBody, bulkUpdateTransactions, selectTransactionIds } from '../transactions/bulk';
import * as transactionSchema from '../transactions/schema';
import { assertReferences, createTransaction, updateTransaction } from '../transactions/service';

/**
 * Who a change applied for an agent is by: the agent (its OAuth application or API key, and the
 * user it acts for) and the person who approved it. Passed down to where the change is applied, so
 * an audit trail can record the agent as the actor.
 */
export interface AgentActor {
  agentActionId: string;
  /** The user the agent's token acts for. */
  userId: string | null;
  clientKind: 'api_key' | 'oauth' | 'session';
  /** The OAuth application or API key; null for a person's own session (the chat assistant). */
  clientId: string | null;
  clientName: string | null;
  approvedByUserId: string | null;
  approvedVia: 'api' | 'chat' | 'policy';
}

export interface ApplyDeps {
  db: Db;
  temporal: TemporalGateway;
}

/** What an applied change does once it committed, outside its transaction (asking the language model). */
export interface AfterApplyDeps {
  temporal: TemporalGateway;
  config: Pick<Config, 'LLM_API_URL'>;
  /** A follow-up is best effort: it reports here rather than fail a change that committed. */
  warn(err: unknown, what: string): void;
}

/** One row as the preview shows it: its fields before (null for a new row) and after. */
export interface PreviewRow {
  id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
}

/** Exactly what would change: a line, how many rows, and a sample of them (all of them up to SAMPLE_SIZE). */
export interface Preview {
  summary: string;
  count: number;
  sample: PreviewRow[];
}

/** A proposal made ready: the input that will be applied (a filter resolved to ids), its preview, and the versions it read. */
export interface Prepared {
  input: Record<string, unknown>;
  preview: Preview;
  /** `<table>:<id>` → updated_at as read: a row that differs at approval refuses it. */
  versions: Record<string, string>;
}

/**
 * A declared operation (api/operations) an agent may propose: its name and scopes as declared,
 * its input schema (the declaration's own), how to preview it, and how to apply it, through the same
 * domain service the declaration's `run` calls. Here rather than in api/ because the worker applies
 * it and may not import api/; test/unit/agent-action-operations.test.ts checks each against its declaration.
 */
export interface ApplicableOperation {
  name: string;
  scopes: readonly [ResourceScope, ...ResourceScope[]];
  input: z.ZodType<Record<string, unknown>>;
  prepare(db: Db, teamId: string, input: Record<string, unknown>): Promise<Prepared>;
  apply(deps: ApplyDeps, teamId: string, actor: AgentActor, input: Record<string, unknown>): Promise<unknown>;
  /** After the apply committed (and again when a retry answers the stored result): what its declaration's `run` does after the service call. */
  afterApply?(deps: AfterApplyDeps, teamId: string, result: unknown): Promise<void>;
}

export const SAMPLE_SIZE = 5;

const define = <S extends z.ZodType<Record<string, unknown>>>(op: {
  name: string;
  scopes: readonly [ResourceScope, ...ResourceScope[]];
  input: S;
  prepare(db: Db, teamId: string, input: z.output<S>): Promise<Prepared>;
  apply(deps: ApplyDeps, teamId: string, actor: AgentActor, input: z.output<S>): Promise<unknown>;
  afterApply?: ApplicableOperation['afterApply'];
}): ApplicableOperation => ({
  name: op.name,
  scopes: op.scopes,
  input: op.input,
  afterApply: op.afterApply,
  // The stored input was parsed by this schema when proposed; it is parsed again where it is used.
  prepare: (db, teamId, input) => op.prepare(db, teamId, op.input.parse(input)),
  apply: (deps, teamId, actor, input) => op.apply(deps, teamId, actor, op.input.parse(input)),
});

const pick = (row: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k] instanceof Date ? toIso(row[k]) : (row[k] ?? null)]));

/** The rows' updated_at now, keyed `<table>:<id>`; a row that is gone has none. */
export async function versionsOf(db: Db, teamId: string, table: string, ids: readonly string[]): Promise<Record<string, string>> {
  if (!ids.length) return {};
  const rows = await db(table)
    .where({ teamId })
    .whereRaw('id = any(?::uuid[])', [[...ids]])
    .select<{ id: string; updatedAt: Date }[]>('id', 'updatedAt');
  return Object.fromEntries(rows.map((r) => [`${table}:${r.id}`, toIso(r.updatedAt)]));
}

/** Of the versions a preview read, the keys whose row changed or went since. */
export async function changedSince(db: Db, teamId: string, versions: Record<string, string>): Promise<string[]> {
  const byTable = new Map<string, string[]>();
  for (const key of Object.keys(versions)) {
    const [table, id] = key.split(':');
    byTable.set(table, [...(byTable.get(table) ?? []), id]);
  }
  const now: Record<string, string> = {};
  for (const [table, ids] of byTable) Object.assign(now, await versionsOf(db, teamId, table, ids));
  return Object.keys(versions).filter((k) => now[k] !== versions[k]);
}

async function transactionRows(db: Db, teamId: string, ids: readonly string[]) {
  return db('transactions')
    .where({ teamId })
    .whereRaw('id = any(?::uuid[])', [[...ids]])
    .orderBy('date', 'desc')
    .orderBy('id')
    .select<Record<string, unknown>[]>('*');
}

const transactionsCreate = define({
  name: 'transactions.create',
  scopes: ['transactions.write'],
  input: transactionSchema.createTransactionBody,
  prepare: async (db, teamId, input) => {
    await assertReferences(db, teamId, input);
    return {
      input,
      preview: {
        summary: `create the transaction "${input.name}", ${formatAmountWithCode(input.amount, input.currency)} on ${input.date}`,
        count: 1,
        sample: [{ id: null, before: null, after: { ...input } }],
      },
      versions: {},
    };
  },
  apply: ({ db }, teamId, _actor, input) => createTransaction(db, teamId, input),
  // As the declaration's run: what rules and learned categories left uncategorised is asked of the model.
  afterApply: async (deps, teamId, result) => {
    if ((result as { category?: unknown } | null)?.category) return;
    await requestLlmCategoriesAfterArrival(deps, teamId, (err) => deps.warn(err, 'language model categories not requested after a create'));
  },
});

const updateInput = transactionSchema.transactionIdParams.extend({ data: transactionSchema.updateTransactionBody });
const transactionsUpdate = define({
  name: 'transactions.update',
  scopes: ['transactions.write'],
  input: updateInput,
  prepare: async (db, teamId, input) => {
    const row = (await transactionRows(db, teamId, [input.id])).at(0);
    if (!row) throw notFound(`Transaction ${input.id} not found`);
    await assertReferences(db, teamId, input.data);
    const keys = Object.keys(input.data);
    return {
      input,
      preview: {
        summary: `change ${keys.join(', ')} of the transaction "${String(row.name)}" of ${String(row.date)}`,
        count: 1,
        sample: [{ id: input.id, before: pick(row, keys), after: { ...input.data } }],
      },
      versions: await versionsOf(db, teamId, 'transactions', [input.id]),
    };
  },
  apply: ({ db }, teamId, _actor, input) => updateTransaction(db, teamId, input.id, input.data),
});

const transactionsBulkUpdate = define({
  name: 'transactions.bulkUpdate',
  scopes: ['transactions.write'],
  input: bulkUpdateBody,
  prepare: async (db, teamId, input) => {
    // A filter is resolved now: what is approved is the rows previewed, not whatever the filter selects later.
    const ids = await selectTransactionIds(db, teamId, input);
    const { addTags, removeTags, ...fields } = input.set;
    // A category or tag that is not the team's is refused now, not after someone approved it.
    await assertReferences(db, teamId, { ...fields, tags: [...(addTags ?? []), ...(removeTags ?? [])] });
    const keys = Object.keys(fields);
    const sample = (await transactionRows(db, teamId, ids)).slice(0, SAMPLE_SIZE).map((row) => ({
      id: String(row.id),
      before: { name: row.name, date: row.date, ...pick(row, keys) },
      after: { ...fields, ...(addTags ? { addTags } : {}), ...(removeTags ? { removeTags } : {}) },
    }));
    const what = [...keys, ...(addTags ? ['tags added'] : []), ...(removeTags ? ['tags removed'] : [])].join(', ');
    return {
      input: { ids, set: input.set },
      preview: { summary: `set ${what} on ${ids.length} transaction${ids.length === 1 ? '' : 's'}`, count: ids.length, sample },
      versions: await versionsOf(db, teamId, 'transactions', ids),
    };
  },
  apply: ({ db }, teamId, _actor, input) => bulkUpdateTransactions(db, teamId, input),
});

const invoicesCreate = define({
  name: 'invoices.create',
  scopes: ['invoices.write'],
  input: invoiceSchema.createInvoiceBody,
  prepare: (_db, _teamId, input) =>
    Promise.resolve({
      input,
      preview: {
        summary: `create a draft invoice in ${input.currency} with ${input.lineItems.length} line${input.lineItems.length === 1 ? '' : 's'}`,
        count: 1,
        sample: [{ id: null, before: null, after: { ...input } }],
      },
      versions: {},
    }),
  apply: ({ db }, teamId, actor, input) => createInvoice(db, teamId, actor.userId, input),
});

const sendInput = invoiceSchema.invoiceIdParams.extend({ data: invoiceSchema.invoiceActionBody.prefault({}) });
const invoicesSend = define({
  name: 'invoices.send',
  scopes: ['invoices.write'],
  input: sendInput,
  prepare: async (db, teamId, input) => {
    const invoice = await getInvoice(db, teamId, input.id);
    const label = invoice.invoiceNumber ?? 'draft';
    return {
      input,
      preview: {
        summary: `issue invoice ${label} (${formatAmountWithCode(invoice.amount, invoice.currency)}) and email it to its customer`,
        count: 1,
        sample: [
          {
            id: input.id,
            before: { status: invoice.status, invoiceNumber: invoice.invoiceNumber },
            after: { status: 'unpaid', emailed: true },
          },
        ],
      },
      versions: await versionsOf(db, teamId, 'invoices', [input.id]),
    };
  },
  apply: async ({ db, temporal }, teamId, actor, input) => {
    await applyInvoiceAction(db, temporal, teamId, input.id, 'send', input.data, actor.userId);
    return getInvoice(db, teamId, input.id);
  },
});

const decisionInput = inboxSchema.inboxIdParams.extend(inboxSchema.decisionBody.shape).strict();
async function prepareInboxDecision(db: Db, teamId: string, input: z.output<typeof decisionInput>, kind: 'match' | 'decline') {
  const item = await getInboxItem(db, teamId, input.id);
  const tx = (await transactionRows(db, teamId, [input.transactionId])).at(0);
  if (!tx) throw notFound(`Transaction ${input.transactionId} not found`);
  const name = item.displayName ?? item.fileName ?? 'inbox item';
  return {
    input,
    preview: {
      summary:
        kind === 'match'
          ? `attach "${name}" to the transaction "${String(tx.name)}" of ${String(tx.date)}`
          : `decline the suggestion that "${name}" belongs to the transaction "${String(tx.name)}"`,
      count: 1,
      sample: [
        {
          id: input.id,
          before: { status: item.status, transactionId: item.transactionId ?? null },
          after: kind === 'match' ? { status: 'done', transactionId: input.transactionId } : { suggestion: 'declined' },
        },
      ],
    },
    versions: {
      ...(await versionsOf(db, teamId, 'inbox_items', [input.id])),
      ...(await versionsOf(db, teamId, 'transactions', [input.transactionId])),
    },
  };
}

const inboxMatch = define({
  name: 'inbox.matchTransaction',
  scopes: ['inbox.write'],
  input: decisionInput,
  prepare: (db, teamId, input) => prepareInboxDecision(db, teamId, input, 'match'),
  apply: ({ db }, teamId, _actor, input) => matchManually(db, teamId, input.id, input.transactionId),
});

const inboxDecline = define({
  name: 'inbox.declineMatch',
  scopes: ['inbox.write'],
  input: decisionInput,
  prepare: (db, teamId, input) => prepareInboxDecision(db, teamId, input, 'decline'),
  apply: async ({ db, temporal }, teamId, _actor, input) => ({
    outcome: await decide(db, temporal, teamId, input.id, input.transactionId, 'decline'),
  }),
});

/** Every operation an agent may propose, by its declared name. */
export const APPLICABLE_OPERATIONS: ReadonlyMap<string, ApplicableOperation> = new Map(
  [transactionsCreate, transactionsUpdate, transactionsBulkUpdate, invoicesCreate, invoicesSend, inboxMatch, inboxDecline].map((o) => [
    o.name,
    o,
  ]),
);

export const APPLICABLE_OPERATION_NAMES = [...APPLICABLE_OPERATIONS.keys()] as [string, ...string[]];

export function applicableOperation(name: string): ApplicableOperation {
  const op = APPLICABLE_OPERATIONS.get(name);
  if (!op) throw new Error(`${name} is not an operation an agent may propose`);
  return op;
}
