import type { Db } from '../../db/knex';
import { groupedStatement } from '../../db/grouped';
import { runPrepared } from '../../db/prepared';
import type { WebhookOutcome } from './record';

const RECORD_OUTCOMES = {
  name: 'webhook_events.outcomes',
  text: `update webhook_events e
            set outcome = u.outcome, team_id = u.team_id, workflow_id = u.workflow_id, processed_at = now(), next_attempt_at = null
           from unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[]) as u(id, outcome, team_id, workflow_id)
          where e.id = u.id`,
};

// One delivery's row is a few dozen bytes of parameters.
const writeOutcomes = groupedStatement<{ id: string; result: WebhookOutcome }, undefined>(
  async (db, group) => {
    await runPrepared(db, RECORD_OUTCOMES, [
      group.map((p) => p.id),
      group.map((p) => p.result.outcome),
      group.map((p) => p.result.teamId ?? null),
      group.map((p) => p.result.workflowId ?? null),
    ]);
    return group.map(() => undefined);
  },
  { most: 500 },
);

/**
 * Records how acting on an event went, in one statement with the outcomes recorded meanwhile
 * (shared/db/grouped.ts). Each caller still hears of its own row's write before its provider is
 * told 200.
 */
export const recordWebhookOutcome = (db: Db, id: string, result: WebhookOutcome): Promise<void> => writeOutcomes(db, { id, result });
