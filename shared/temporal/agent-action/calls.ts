import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TemporalGateway } from '../client';
import { Stage, TeamId } from '../search-attribute-keys';
import { startOnce } from '../start';
import { summaryLine } from '../summary';
import {
  AGENT_ACTION_REFUSALS,
  agentActionContract,
  agentActionStage,
  agentActionWorkflowId,
  approveAgentAction,
  declineAgentAction,
  type AgentActionApplied,
  type AgentActionDecision,
  type AgentActionInput,
  type AgentActionProgress,
  type AgentActionStage,
} from './contract';

/** Starts the run that notifies and waits for the decision; the summary names the operation, the change and who proposed it. */
export function startAgentAction(
  temporal: TemporalGateway,
  input: AgentActionInput,
  about: { summary: string; clientName: string | null },
): Promise<string> {
  return startOnce(temporal, agentActionContract, {
    workflowId: agentActionWorkflowId(input.actionId),
    args: [input],
    searchAttributes: [
      { key: TeamId, value: input.teamId },
      { key: Stage, value: 'notifying' },
    ],
    summary: summaryLine('Agent action', input.operation, about.summary, about.clientName ? `by ${about.clientName}` : null),
  });
}

/** What the run answered to an approval or a decline: the value, or the refusal's type and text. */
export type UpdateOutcome<T> = { ok: true; value: T } | { ok: false; type: string; message: string };

async function update<T>(run: () => Promise<T>): Promise<UpdateOutcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError)
      return { ok: false, type: AGENT_ACTION_REFUSALS.notPending, message: 'The action is no longer waiting for a decision' };
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
      return { ok: false, type: err.cause.type ?? 'Error', message: err.cause.message };
    throw err;
  }
}

/** Approves: the run applies the change and answers with its result, or refuses (expired, declined, changed). */
export async function approveAgentActionRun(
  temporal: TemporalGateway,
  actionId: string,
  decision: AgentActionDecision,
): Promise<UpdateOutcome<AgentActionApplied>> {
  const handle = (await temporal.client()).workflow.getHandle(agentActionWorkflowId(actionId));
  return update(() => handle.executeUpdate(approveAgentAction, { args: [decision] }));
}

export async function declineAgentActionRun(
  temporal: TemporalGateway,
  actionId: string,
  decision: AgentActionDecision,
): Promise<UpdateOutcome<{ stage: AgentActionStage }>> {
  const handle = (await temporal.client()).workflow.getHandle(agentActionWorkflowId(actionId));
  return update(() => handle.executeUpdate(declineAgentAction, { args: [decision] }));
}

export async function queryAgentActionStage(temporal: TemporalGateway, actionId: string): Promise<AgentActionProgress> {
  return (await temporal.client()).workflow.getHandle(agentActionWorkflowId(actionId)).query(agentActionStage);
}
