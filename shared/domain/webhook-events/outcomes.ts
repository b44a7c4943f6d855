import type { Db } from '../../db/knex';
import { runPrepared } from '../../db/prepared';
import { acrossTeams } from '../../db/team-wall';
import type { WebhookOutcome } from './record';

interface Pending {
  id: string;
  result: WebhookOutcome;
  done(err?: unknown): void;
}

/** Outcomes written in one statement at most: one delivery's row is a few dozen bytes of parameters. */
const MOST_PER_STATEMENT = 500;

const RECORD_OUTCOMES = {
  name: 'webhook_events.outcomes',
  text: `update webhook_events e
            set outcome = u.outcome, team_id = u.team_id, workflow_id = u.workflow_id, processed_at = now(), next_attempt_at = null
           from unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[]) as u(id, outcome, team_id, workflow_id)
          where e.id = u.id`,
};

/**
 * Writes acted-on events' outcomes in groups, as a database commits a group of transactions: the
 * first outcome goes at once, and those that arrive while it is on its way go together in the next
 * statement. A lone delivery waits for nothing; under load a round trip carries many outcomes, and
 * each round trip costs a socket write, which on this machine took a quarter of the API's time in
 * bench/webhooks.ts. Each caller still hears of its own row's write before its provider is told 200.
 */
class OutcomeWriter {
  private queue: Pending[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  record(id: string, result: WebhookOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        id,
        result,
        done: (err) =>
          err === undefined
            ? resolve()
            : reject(err instanceof Error ? err : new Error('could not record the webhook outcome', { cause: err })),
      });
      // Detached from the caller's team scope: one statement writes rows of many teams.
      if (!this.writing) void acrossTeams(() => this.drain());
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length) {
        const group = this.queue.splice(0, MOST_PER_STATEMENT);
        try {
          await this.write(group);
          for (const p of group) p.done();
        } catch (err) {
          // One bad row (a team deleted meanwhile) must not fail the others: each is written alone.
          if (group.length === 1) group[0].done(err);
          else
            for (const p of group)
              await this.write([p]).then(
                () => p.done(),
                (e: unknown) => p.done(e),
              );
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(group: Pending[]): Promise<void> {
    await runPrepared(this.db, RECORD_OUTCOMES, [
      group.map((p) => p.id),
      group.map((p) => p.result.outcome),
      group.map((p) => p.result.teamId ?? null),
      group.map((p) => p.result.workflowId ?? null),
    ]);
  }
}

const writers = new WeakMap<Db, OutcomeWriter>();

/** Records how acting on an event went, together with outcomes recorded meanwhile (one writer per database handle). */
export function recordWebhookOutcome(db: Db, id: string, result: WebhookOutcome): Promise<void> {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = new OutcomeWriter(db)));
  return writer.record(id, result);
}
