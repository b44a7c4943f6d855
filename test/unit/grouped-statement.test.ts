import { createDb, type Db } from '../../shared/db/knex';
import { groupedStatement } from '../../shared/db/grouped';
import { asActor, currentActor, currentTeamScope, withinTeam, type AuditActor } from '../../shared/db/team-wall';

/** A statement that doubles its inputs, records each group it was given and the scope and actor it ran as, and refuses 13. */
function doubling(most = 100) {
  const groups: number[][] = [];
  const scopes: (string | undefined)[] = [];
  const actors: (AuditActor | undefined)[] = [];
  const run = groupedStatement<number, number>(
    async (_db, inputs) => {
      groups.push(inputs);
      scopes.push(currentTeamScope());
      actors.push(currentActor());
      await new Promise((r) => setTimeout(r, 5));
      if (inputs.includes(13)) throw new Error('13 is refused');
      return inputs.map((n) => n * 2);
    },
    { most },
  );
  return { run, groups, scopes, actors };
}

// Handles that never connect: the statements here are stand-ins, and a handle only keys its queue.
const handles: Db[] = [];
const db = () => {
  const handle = createDb({ url: 'postgres://nobody@127.0.0.1:1/none' });
  handles.push(handle);
  return handle;
};
afterAll(() => Promise.all(handles.map((h) => h.destroy())));

describe('groupedStatement', () => {
  it('sends the first call at once and the calls made meanwhile together, each caller answered with its own result', async () => {
    const { run, groups } = doubling();
    const handle = db();
    const inputs = Array.from({ length: 20 }, (_, i) => 100 + i);
    const results = await Promise.all(inputs.map((n) => run(handle, n)));
    expect(results).toEqual(inputs.map((n) => n * 2));
    expect(groups).toEqual([inputs.slice(0, 1), inputs.slice(1)]);
  });

  it('puts at most `most` calls in one statement', async () => {
    const { run, groups } = doubling(5);
    const handle = db();
    await Promise.all(Array.from({ length: 12 }, (_, i) => run(handle, 100 + i)));
    expect(groups.map((g) => g.length)).toEqual([1, 5, 5, 1]);
  });

  it('runs each call of a failed group alone, so only the bad one fails', async () => {
    const { run, groups } = doubling();
    const handle = db();
    const results = await Promise.allSettled([10, 11, 12, 13, 14].map((n) => run(handle, n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      20,
      22,
      24,
      '13 is refused',
      28,
    ]);
    expect(groups).toEqual([[10], [11, 12, 13, 14], [11], [12], [13], [14]]);
  });

  it('keeps one queue per database handle, and runs outside the caller’s team scope', async () => {
    const { run, groups, scopes } = doubling();
    const [a, b] = [db(), db()];
    await withinTeam('team-a', () => Promise.all([run(a, 1), run(b, 2), run(a, 3), run(b, 4)]));
    expect(groups).toEqual([[1], [2], [3], [4]]);
    expect(scopes.every((s) => s === undefined)).toBe(true);
  });

  it('runs as no audit actor, though its calls come from some: a group’s writes are no one caller’s', async () => {
    const { run, groups, actors } = doubling();
    const handle = db();
    const provider = (credId: string): AuditActor => ({
      op: 'webhook:bank-b',
      actor: 'provider',
      actorId: 'bank-b',
      cred: 'webhook',
      credId,
    });
    await Promise.all([1, 2, 3].map((n) => asActor(provider(`event-${n}`), () => run(handle, n))));
    expect(groups).toEqual([[1], [2, 3]]);
    expect(actors).toEqual([undefined, undefined]);
  });
});
