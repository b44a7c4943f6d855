import { assertSession } from '../../shared/domain/auth/principal';
import * as schema from '../../shared/domain/agent-actions/schema';
import * as service from '../../shared/domain/agent-actions/service';
import { mutation, one, page, query } from './declare';

const DECIDER =
  'A person decides: the OAuth application or API key that proposed the action cannot approve it (403), and the approver needs the scopes of the operation it applies.';

export const agentActions = [
  query('agentActions.get', 'GET /agent-actions', ['agent-actions.read'], {
    summary: 'List actions agents proposed',
    description:
      'Writes AI agents proposed over MCP or in the chat, newest first, with their preview and how they ended; keyset-paginated.',
    input: schema.listAgentActionsQuery,
    output: page(schema.agentActionSchema),
    run: ({ principal, input }, { db }) => service.listAgentActions(db, principal.teamId, input),
  }),
  query('agentActions.getPolicies', 'GET /agent-actions/policies', ['agent-actions.read'], {
    summary: 'What agents may do without approval',
    output: one(schema.agentActionPoliciesSchema),
    run: ({ principal }, { db }) => service.teamPolicies(db, principal.teamId),
  }),
  mutation('agentActions.updatePolicies', 'PUT /agent-actions/policies', ['agent-actions.write', 'teams.write'], {
    summary: 'Let agents act without approval, within limits',
    description:
      "Replaces the team's policies: each names an operation agents may propose and the most rows it may change to be applied at once (`{operation: 'transactions.bulkUpdate', maxCount: 50}`: categorise up to 50 transactions). Above the limit, or for an operation without a policy, the action waits for approval. Needs a person's session (403 for API keys and OAuth tokens): an agent cannot widen its own powers.",
    input: schema.agentActionPoliciesSchema,
    output: one(schema.agentActionPoliciesSchema),
    run: ({ principal, input }, { db }) => {
      assertSession(principal, 'Changing what agents may do without approval');
      return service.setTeamPolicies(db, principal.teamId, input);
    },
  }),
  query('agentActions.getById', 'GET /agent-actions/:id', ['agent-actions.read'], {
    summary: 'Get an action an agent proposed',
    input: schema.agentActionIdParams,
    output: one(schema.agentActionSchema),
    run: ({ principal, input }, { db }) => service.getAgentAction(db, principal.teamId, input.id),
  }),
  mutation('agentActions.approve', 'POST /agent-actions/:id/approve', ['agent-actions.write'], {
    summary: 'Approve and apply an action an agent proposed',
    description: `Applies the change through the same operation a person's request uses, once, and answers with its result. 409 when the action expired, was decided already, or a row its preview showed has changed since (it becomes \`stale\`; nothing is applied). ${DECIDER}`,
    input: schema.agentActionIdParams,
    output: one(schema.approvedAgentActionSchema),
    run: ({ principal, input }, { db, temporal }) => service.approveAgentAction(db, temporal, principal, input.id),
  }),
  mutation('agentActions.decline', 'POST /agent-actions/:id/decline', ['agent-actions.write'], {
    summary: 'Decline an action an agent proposed',
    description: 'Nothing is applied. 409 when it was decided already or expired.',
    input: schema.agentActionIdParams,
    output: one(schema.agentActionSchema),
    run: ({ principal, input }, { db, temporal }) => service.declineAgentAction(db, temporal, principal, input.id),
  }),
];
