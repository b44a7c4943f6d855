import { ApplicationFailure, log } from '@temporalio/activity';
import {
  agentActionChatPrompt,
  AgentActionRefused,
  applyAgentAction,
  closeAgentAction,
  notifyAgentActionProposed,
} from '../../shared/domain/agent-actions/service';
import { AppError } from '../../shared/errors';
import { AGENT_ACTION_REFUSALS, type AgentActionApplied, type AgentActionDecision } from '../../shared/temporal/agent-action/contract';
import type { ActivityDeps } from '../deps';
import { sendOnce } from '../messaging/send-once';

export function agentActionActivities({ db, messaging, temporal, config }: ActivityDeps) {
  return {
    /** The in-app notice, once; and the team's chat numbers to ask with buttons (none when no chat is linked). */
    async notifyAgentAction(input: { actionId: string }): Promise<{ phoneNumbers: string[] }> {
      await notifyAgentActionProposed(db, input.actionId);
      return { phoneNumbers: (await agentActionChatPrompt(db, input.actionId))?.phoneNumbers ?? [] };
    },

    /** Approve and decline buttons to one chat number, at most once across retries. */
    async sendAgentActionButtons(input: { actionId: string; to: string }): Promise<void> {
      const prompt = await agentActionChatPrompt(db, input.actionId);
      if (!prompt) return; // decided meanwhile: nothing to ask
      await sendOnce(db, () => messaging.sendButtons(input.to, prompt.text, prompt.buttons));
    },

    /** Applies the approved change once (a retry after the commit answers the stored result); a refusal is final. */
    async applyAgentAction(input: { actionId: string; decision: AgentActionDecision }): Promise<AgentActionApplied> {
      try {
        return await applyAgentAction(
          {
            db,
            temporal,
            config,
            warn: (err, what) => {
              log.warn(what, { err: String(err) });
            },
          },
          input.actionId,
          input.decision,
        );
      } catch (err) {
        if (err instanceof AgentActionRefused) throw ApplicationFailure.nonRetryable(err.description, err.refusal);
        if (err instanceof AppError) throw ApplicationFailure.nonRetryable(err.description, AGENT_ACTION_REFUSALS.refused);
        throw err;
      }
    },

    async closeAgentAction(input: {
      actionId: string;
      status: 'declined' | 'expired';
      decision: AgentActionDecision | null;
    }): Promise<string> {
      return closeAgentAction(db, input.actionId, input.status, input.decision);
    },
  };
}

export type AgentActionActivities = ReturnType<typeof agentActionActivities>;
