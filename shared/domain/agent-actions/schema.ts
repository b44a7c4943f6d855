import { z } from 'zod';
import { AGENT_ACTION_DECIDED_VIAS, AGENT_ACTION_STATUSES, AGENT_ACTION_VIAS } from '../../db/models';
import { multi, pageSize } from '../common/query';
import { APPLICABLE_OPERATION_NAMES } from './operations';

const previewRow = z.object({
  id: z.uuid().nullable().meta({ description: 'The row; null for one the action would create.' }),
  before: z.record(z.string(), z.unknown()).nullable().meta({ description: 'Its fields now; null for a new row.' }),
  after: z.record(z.string(), z.unknown()).meta({ description: 'What the action sets.' }),
});

export const agentActionSchema = z
  .object({
    id: z.uuid(),
    operation: z.string().meta({ description: 'The operation it applies, as this API names it (`transactions.bulkUpdate`).' }),
    tool: z.string().meta({ description: 'The tool the agent called (`categorize_transactions`).' }),
    input: z
      .record(z.string(), z.unknown())
      .meta({ description: "The operation's input, as it will be applied (a filter resolved to ids)." }),
    status: z.enum(AGENT_ACTION_STATUSES).meta({
      description:
        '`pending` waits for a decision; `applied`; `declined`; `expired` (nobody decided in time); `stale` (a row it previewed changed before approval: nothing applied); `failed` (the operation refused when applied: nothing applied).',
    }),
    via: z.enum(AGENT_ACTION_VIAS).meta({ description: 'Where the agent proposed it: MCP or the chat assistant.' }),
    preview: z
      .object({
        summary: z.string(),
        count: z.number().int().meta({ description: 'How many rows it would change or create.' }),
        sample: z.array(previewRow).meta({ description: 'Up to 5 of them, before and after.' }),
      })
      .meta({ description: 'Exactly what would change.' }),
    proposedBy: z.object({
      kind: z.enum(['api_key', 'oauth', 'session']),
      clientId: z.uuid().nullable().meta({ description: 'The OAuth application or API key; null for a person’s session (the chat).' }),
      clientName: z.string().nullable(),
      userId: z.uuid().nullable(),
    }),
    decision: z
      .object({
        via: z.enum(AGENT_ACTION_DECIDED_VIAS).meta({ description: '`policy`: applied at once under the team’s limits.' }),
        userId: z.uuid().nullable(),
        at: z.string(),
      })
      .nullable(),
    result: z.unknown().meta({ description: "The operation's answer once applied, as a person's call gets it." }),
    error: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AgentAction', description: 'A change an AI agent proposed, waiting for (or past) a person’s decision.' });
export type AgentActionDto = z.infer<typeof agentActionSchema>;

export const listAgentActionsQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
  status: multi(z.enum(AGENT_ACTION_STATUSES)).meta({ description: 'One or more statuses; default all.' }),
});
export type ListAgentActionsQuery = z.infer<typeof listAgentActionsQuery>;

export const agentActionIdParams = z.object({ id: z.uuid() });

export const approvedAgentActionSchema = z
  .object({
    action: agentActionSchema,
    result: z.unknown().meta({ description: "The applied operation's answer." }),
  })
  .meta({ id: 'ApprovedAgentAction' });

export const agentActionPolicySchema = z
  .object({
    operation: z.enum(APPLICABLE_OPERATION_NAMES).meta({ description: 'An operation agents may propose (`transactions.bulkUpdate`).' }),
    maxCount: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .meta({ description: 'Applied without approval when it changes at most this many rows; above it, proposed as usual.' }),
  })
  .strict();

export const agentActionPoliciesSchema = z
  .object({ policies: z.array(agentActionPolicySchema).max(20) })
  .strict()
  .refine((b) => new Set(b.policies.map((p) => p.operation)).size === b.policies.length, {
    message: 'one policy per operation',
    path: ['policies'],
  })
  .meta({ id: 'AgentActionPolicies', description: 'Which operations an agent may apply without approval, and up to how many rows.' });
export type AgentActionPolicies = z.infer<typeof agentActionPoliciesSchema>;
