import type { Db } from './knex';
import { acrossTeams, asNoActor } from './team-wall';

interface Pending<I, O> {
  input: I;
  settle(result: { ok: true; value: O } | { ok: false; error: unknown }): void;
}

/**
 * One statement for many callers, as a database commits a group of transactions: the first call
 * goes at once, and the calls made while it is on its way go together in the next statement. A lone
 * call waits for nothing; under load a round trip carries many calls, and on a busy API each round
 * trip costs a socket write (one write per statement per delivery otherwise, a large part of the
 * API's time in bench/webhooks.ts).
 *
 * `run` answers each input of a group in its order. When a group's statement fails, each of its
 * calls is run alone, so one bad input (a team deleted meanwhile) fails only its own caller.
 * Statements run outside any team's scope and as no audit actor: a group carries calls of many teams
 * and actors, and the SQL names its rows by their own keys.
 */
export function groupedStatement<I, O>(run: (db: Db, inputs: I[]) => Promise<O[]>, opts: { most: number }) {
  const groups = new WeakMap<Db, Group<I, O>>();
  return (db: Db, input: I): Promise<O> => {
    let group = groups.get(db);
    if (!group) groups.set(db, (group = new Group((inputs) => run(db, inputs), opts.most)));
    return group.call(input);
  };
}

class Group<I, O> {
  private queue: Pending<I, O>[] = [];
  private running = false;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly most: number,
  ) {}

  call(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        input,
        settle: (r) => (r.ok ? resolve(r.value) : reject(r.error instanceof Error ? r.error : new Error(String(r.error)))),
      });
      if (!this.running) void acrossTeams(() => asNoActor(() => this.drain()));
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length) {
        const group = this.queue.splice(0, this.most);
        try {
          const values = await this.run(group.map((p) => p.input));
          group.forEach((p, i) => p.settle({ ok: true, value: values[i] }));
        } catch (error) {
          if (group.length === 1) group[0].settle({ ok: false, error });
          else
            for (const p of group)
              await this.run([p.input]).then(
                ([value]) => p.settle({ ok: true, value }),
                (e: unknown) => p.settle({ ok: false, error: e }),
              );
        }
      }
    } finally {
      this.running = false;
    }
  }
}
