import type { Context as ActivityContext } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { asActor } from '../shared/db/team-wall';

/**
 * Every activity runs as its workflow for the audit trail (migration 0088): what it writes is
 * recorded with the workflow's id as the actor and its run as the credential, whichever domain
 * function does the writing.
 */
export const auditActivities: ActivityInterceptorsFactory = (ctx: ActivityContext) => ({
  inbound: {
    execute: (input, next) => {
      const { workflowExecution, workflowType, activityType } = ctx.info;
      return asActor(
        {
          op: `workflow:${workflowType}/${activityType}`,
          actor: 'workflow',
          actorId: workflowExecution?.workflowId ?? null,
          cred: 'workflow',
          credId: workflowExecution?.runId ?? null,
        },
        () => next(input),
      );
    },
  },
});
