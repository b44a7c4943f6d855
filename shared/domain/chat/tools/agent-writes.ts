import { z } from 'zod';
import { forbidden } from '../../../errors';
import type { ResourceScope } from '../../auth/scopes';
import type { ProposalOutcome } from '../../agent-actions/service';
import { BULK_LIMIT, bulkUpdateBody } from '../../transactions/bulk';
import { createInvoiceBody } from '../../invoices/schema';
import { createTransactionBody, transactionFilterBody, updateTransactionBody } from '../../transactions/schema';
import { defineTool, type ChatTool, type ToolAnnotations } from './define';

const PROPOSES =
  ' It does not apply at once: it becomes an action a person approves or declines (GET /agent-actions/{actionId}), unless the team lets agents do this much without approval; the answer says which (`status`: `pending_approval` with a preview, or `applied` with the result).';

/**
 * The operation's body as a tool's arguments: the same fields, without the body's name in the
 * reference (a named schema becomes a `$ref`, and MCP wants the arguments' schema to be an object
 * itself). Checks across fields are the operation's, made when the action is proposed.
 */
const asToolInput = (body: z.ZodObject) => z.object(body.shape).strict();

/**
 * A write tool: its arguments become the input of a declared operation, which is proposed as an
 * AgentAction (never applied here) through the context's `propose`.
 */
function defineWriteTool<I extends z.ZodObject>(spec: {
  name: string;
  title: string;
  description: string;
  scopes: readonly [ResourceScope, ...ResourceScope[]];
  operation: string;
  annotations: Omit<ToolAnnotations, 'readOnlyHint' | 'openWorldHint'> & { openWorldHint?: boolean };
  input: I;
  toOperation(input: z.output<I>): Record<string, unknown>;
}): ChatTool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description + PROPOSES,
    scopes: spec.scopes,
    annotations: { readOnlyHint: false, openWorldHint: false, ...spec.annotations },
    input: spec.input,
    run: async (ctx, input): Promise<ProposalOutcome> => {
      if (!ctx.propose) throw forbidden(`${spec.name} cannot be used here: nobody could approve it`);
      return ctx.propose({ tool: spec.name, operation: spec.operation, input: spec.toOperation(input) });
    },
    answer: (r, _input, ref) =>
      r.status === 'applied'
        ? `Done: ${r.preview.summary} [${ref}].`
        : `I proposed to ${r.preview.summary} [${ref}]; it waits for your approval until ${r.expiresAt}.`,
  });
}

export const createTransactionTool = defineWriteTool({
  name: 'create_transaction',
  title: 'Create a transaction',
  description: 'Records a manual transaction (cash, a payment no bank feed brings in).',
  scopes: ['transactions.write'],
  operation: 'transactions.create',
  annotations: { destructiveHint: false, idempotentHint: false },
  input: asToolInput(createTransactionBody),
  toOperation: (input) => input,
});

export const updateTransactionTool = defineWriteTool({
  name: 'update_transaction',
  title: 'Update a transaction',
  description: 'Changes one transaction: its category, note, tags, status; on manual ones also date, name and amount.',
  scopes: ['transactions.write'],
  operation: 'transactions.update',
  annotations: { destructiveHint: true, idempotentHint: true },
  input: z.object({ id: z.uuid().meta({ description: 'Transaction id.' }), data: updateTransactionBody }).strict(),
  toOperation: (input) => input,
});

export const categorizeTransactionsTool = defineWriteTool({
  name: 'categorize_transactions',
  title: 'Categorise transactions',
  description: `Sets the category of many transactions at once: by \`transactionIds\` or by \`filter\` (the transaction list's filters), up to ${BULK_LIMIT.toLocaleString('en')}.`,
  scopes: ['transactions.write'],
  operation: 'transactions.bulkUpdate',
  annotations: { destructiveHint: true, idempotentHint: true },
  input: z
    .object({
      transactionIds: z.array(z.uuid()).min(1).max(BULK_LIMIT).optional(),
      filter: transactionFilterBody.optional(),
      category: z.string().min(1).max(100).nullable().meta({ description: 'Category slug; null clears the category.' }),
    })
    .strict()
    .refine((b) => (b.transactionIds === undefined) !== (b.filter === undefined), {
      message: 'give either `transactionIds` or `filter`',
      path: ['transactionIds'],
    }),
  toOperation: (input) => ({
    ...(input.transactionIds ? { ids: input.transactionIds } : { filter: input.filter }),
    set: { categorySlug: input.category },
  }),
});

export const bulkUpdateTransactionsTool = defineWriteTool({
  name: 'bulk_update_transactions',
  title: 'Change many transactions',
  description: `Sets a category, status, assignee, note or flags, or adds or removes tags, on many transactions at once (by \`ids\` or \`filter\`, up to ${BULK_LIMIT.toLocaleString('en')}).`,
  scopes: ['transactions.write'],
  operation: 'transactions.bulkUpdate',
  annotations: { destructiveHint: true, idempotentHint: true },
  input: asToolInput(bulkUpdateBody),
  toOperation: (input) => input,
});

export const createInvoiceTool = defineWriteTool({
  name: 'create_invoice',
  title: 'Create a draft invoice',
  description: 'Creates a draft invoice with its line items; totals are computed. Sending it is `send_invoice`.',
  scopes: ['invoices.write'],
  operation: 'invoices.create',
  annotations: { destructiveHint: false, idempotentHint: false },
  input: asToolInput(createInvoiceBody),
  toOperation: (input) => input,
});

export const sendInvoiceTool = defineWriteTool({
  name: 'send_invoice',
  title: 'Send an invoice',
  description: 'Issues a draft invoice and emails it to its customer with the PDF and a payment link.',
  scopes: ['invoices.write'],
  operation: 'invoices.send',
  annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.object({ invoiceId: z.uuid() }).strict(),
  toOperation: (input) => ({ id: input.invoiceId, data: {} }),
});

const inboxDecision = z.object({ inboxItemId: z.uuid(), transactionId: z.uuid() }).strict();

export const matchInboxItemTool = defineWriteTool({
  name: 'match_inbox_item',
  title: 'Match a receipt to a transaction',
  description: 'Attaches an inbox item (a receipt, an invoice received) to the transaction it belongs to.',
  scopes: ['inbox.write'],
  operation: 'inbox.matchTransaction',
  annotations: { destructiveHint: false, idempotentHint: true },
  input: inboxDecision,
  toOperation: (input) => ({ id: input.inboxItemId, transactionId: input.transactionId }),
});

export const declineInboxMatchTool = defineWriteTool({
  name: 'decline_inbox_match',
  title: 'Decline a suggested receipt match',
  description: 'Declines the suggestion that an inbox item belongs to a transaction.',
  scopes: ['inbox.write'],
  operation: 'inbox.declineMatch',
  annotations: { destructiveHint: true, idempotentHint: true },
  input: inboxDecision,
  toOperation: (input) => ({ id: input.inboxItemId, transactionId: input.transactionId }),
});

/** Every write tool, in the order agents see them. */
export const WRITE_TOOLS: readonly ChatTool[] = [
  createTransactionTool,
  updateTransactionTool,
  categorizeTransactionsTool,
  bulkUpdateTransactionsTool,
  createInvoiceTool,
  sendInvoiceTool,
  matchInboxItemTool,
  declineInboxMatchTool,
];
