import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { workflowContract } from '../contract';

/** What the run needs; the proposed change itself (operation, input, preview, versions) is the `agent_actions` row's. */
export interface AgentActionInput {
  actionId: string;
  teamId: string;
  /** The user the proposing token or session acts for: the one the in-app notice is for. */
  userId: string | null;
  /** The operation's declared name (`transactions.bulkUpdate`), for the UI and the history. */
  operation: string;
  /** ISO 8601: after this the action expires and an approval is refused. */
  expiresAt: string;
}

export type AgentActionStage = 'notifying' | 'awaiting_approval' | 'applying' | 'applied' | 'declined' | 'expired' | 'stale' | 'failed';

export interface AgentActionProgress {
  stage: AgentActionStage;
  expiresAt: string;
}

/** Who decided, and through which door: a person's session or token over the API, or a chat button. */
export interface AgentActionDecision {
  /** Null for a chat button: the number is the team's, not a user's. */
  userId: string | null;
  via: 'api' | 'chat';
}

/** The applied change: the operation's own answer, as a person's call would get it. */
export interface AgentActionApplied {
  actionId: string;
  operation: string;
  result: unknown;
}

export interface AgentActionResult {
  stage: AgentActionStage;
}

/** The Update's refusals and failures, by type: the API maps each to its status. */
export const AGENT_ACTION_REFUSALS = {
  /** The action is no longer waiting (applied, declined, expired, stale). */
  notPending: 'AgentActionNotPending',
  /** Past its expiry, even if the timer has not fired yet. */
  expired: 'AgentActionExpired',
  /** A row the preview read changed since: what was approved is not what would happen. */
  changed: 'AgentActionChanged',
  /** The operation refused (a 4xx of its own): nothing was applied. */
  refused: 'AgentActionRefused',
} as const;

/** Approves and applies: answers with the applied result, or fails (validator or apply) and changes nothing. */
export const approveAgentAction = defineUpdate<AgentActionApplied, [AgentActionDecision]>('approveAgentAction');
/** Declines: nothing is applied and the run ends. */
export const declineAgentAction = defineUpdate<{ stage: AgentActionStage }, [AgentActionDecision]>('declineAgentAction');
export const agentActionStage = defineQuery<AgentActionProgress>('agentActionStage');

export type AgentActionWorkflow = (input: AgentActionInput) => Promise<AgentActionResult>;

export const agentActionContract = workflowContract<AgentActionWorkflow>('agentAction');

/** One run per proposed action. */
export const agentActionWorkflowId = (actionId: string) => `agent-action:${actionId}`;
