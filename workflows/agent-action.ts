import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { AgentActionActivities } from '../activities/agent-actions/agent-action';
import { Stage } from '../shared/temporal/search-attribute-keys';
import {
  AGENT_ACTION_REFUSALS,
  agentActionStage,
  approveAgentAction,
  declineAgentAction,
  type AgentActionDecision,
  type AgentActionStage,
  type AgentActionWorkflow,
} from '../shared/temporal/agent-action/contract';

const retry = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 10 };
const { notifyAgentAction, closeAgentAction } = proxyActivities<AgentActionActivities>({ startToCloseTimeout: '30s', retry });
// Longer than the chat client's 45 s limit: a slow provider is waited for rather than asked again.
const { sendAgentActionButtons } = proxyActivities<AgentActionActivities>({ startToCloseTimeout: '1m', retry });
// The approver waits for this: a worker lost mid-apply is retried in 15 s, and the row's lock and status make the retry a no-op.
const { applyAgentAction } = proxyActivities<AgentActionActivities>({ startToCloseTimeout: '15s', retry });

const STAGE_OF_REFUSAL: Record<string, AgentActionStage> = {
  [AGENT_ACTION_REFUSALS.changed]: 'stale',
  [AGENT_ACTION_REFUSALS.refused]: 'failed',
};

/**
 * AgentAction (id `agent-action:<actionId>`): notify in the app and in chat (approve/decline
 * buttons) → wait until the expiry for the `approveAgentAction` or `declineAgentAction` Update →
 * apply once (the activity, through the operation a person uses) and answer the approver with the
 * result, or close it declined or expired. An Update is refused before it is accepted when the run
 * no longer waits or the expiry has passed; an accepted approval still fails, changing nothing, when
 * a row the preview read has changed since (the action is then stale).
 */
export const agentAction: AgentActionWorkflow = async (input) => {
  // An object, so its reads are not narrowed away between awaits: the Update handlers change it.
  const run: { stage: AgentActionStage } = { stage: 'notifying' };
  const expiresAtMs = Date.parse(input.expiresAt);
  const setStage = (s: AgentActionStage) => {
    run.stage = s;
    upsertSearchAttributes([{ key: Stage, value: s }]);
  };
  const waiting = () => run.stage === 'notifying' || run.stage === 'awaiting_approval';
  setHandler(agentActionStage, () => ({ stage: run.stage, expiresAt: input.expiresAt }));

  // Workflow time is replayed as it was, so the validator decides the same on every replay.
  const validator = (_decision: AgentActionDecision) => {
    if (!waiting()) throw ApplicationFailure.nonRetryable(`The action is ${run.stage}`, AGENT_ACTION_REFUSALS.notPending);
    if (Date.now() >= expiresAtMs)
      throw ApplicationFailure.nonRetryable(`The action expired at ${input.expiresAt}`, AGENT_ACTION_REFUSALS.expired);
  };

  setHandler(
    approveAgentAction,
    async (decision) => {
      // Set before the first await: a second approval arriving meanwhile is refused by the validator.
      setStage('applying');
      try {
        const applied = await applyAgentAction({ actionId: input.actionId, decision });
        setStage('applied');
        return applied;
      } catch (err) {
        const cause = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : null;
        const type = cause?.type ?? AGENT_ACTION_REFUSALS.refused;
        // Not pending in the database (a decision made while this run was down): the row's status stands.
        setStage(STAGE_OF_REFUSAL[type] ?? 'failed');
        throw ApplicationFailure.nonRetryable(cause?.message ?? 'The action could not be applied', type);
      }
    },
    { validator },
  );

  setHandler(
    declineAgentAction,
    async (decision) => {
      setStage('declined');
      await closeAgentAction({ actionId: input.actionId, status: 'declined', decision });
      return { stage: run.stage };
    },
    { validator },
  );

  const { phoneNumbers } = await notifyAgentAction({ actionId: input.actionId });
  for (const to of phoneNumbers) {
    if (!waiting()) break;
    await sendAgentActionButtons({ actionId: input.actionId, to });
  }
  if (run.stage === 'notifying') setStage('awaiting_approval');

  const left = expiresAtMs - Date.now();
  const decided = left > 0 ? await condition(() => !waiting(), left) : !waiting();
  if (!decided) {
    setStage('expired');
    await closeAgentAction({ actionId: input.actionId, status: 'expired', decision: null });
  }
  // An approval being applied finishes before the run ends, so its approver gets the answer.
  await condition(allHandlersFinished);
  return { stage: run.stage };
};
