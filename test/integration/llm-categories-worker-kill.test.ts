import { requestLlmCategories } from '../../shared/temporal/llm-categories/calls';
import type { LlmCategoriesWorkflow } from '../../shared/temporal/llm-categories/contract';
import { startLlmFake } from '../fakes/llm';
import { workerKillTest } from '../support/worker-kill';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

/**
 * LlmCategories with its worker killed while the model is thinking: the answer in flight is lost,
 * a restarted worker asks again, and each transaction is categorised (and announced) once.
 */
const KEY = 'sk-kill';
const { tdb, workers, temporal: gatewayFor } = workerKillTest();

it('a worker killed mid-request: the restarted one asks again and categorises each row once', async () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  let hold = true;
  const llm = await startLlmFake(KEY, async (req) => {
    if (hold) await held;
    const text: string = req.body.messages[1].content[0].text;
    const asked: { id: string }[] = JSON.parse(text.slice(text.lastIndexOf('\n') + 1));
    return { categories: asked.map((t) => ({ id: t.id, category: 'software', confidence: 0.97, reason: 'a SaaS vendor' })) };
  });
  try {
    const owner = await createTeamAndOwner(tdb.db, 'Killed');
    const teamId = owner.team.id;
    await tdb.db('transaction_categories').insert({ teamId, slug: 'software', name: 'Software' });
    const ids = (
      await tdb
        .db('transactions')
        .insert(
          ['Obscure SaaS Ltd', 'Another SaaS GmbH'].map((name) => ({ teamId, name, amount: -20, currency: 'EUR', date: '2026-11-20' })),
        )
        .returning<{ id: string }[]>('id')
    ).map((r) => r.id);
    const env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('llm-kill'), LLM_API_URL: llm.url, LLM_API_KEY: KEY, LLM_MODEL: 'kill-gpt' };
    const temporal = gatewayFor(env);

    const first = workers.start(env);
    const workflowId = await requestLlmCategories(temporal, { teamId, teamName: 'Killed' });
    await eventually(() => Promise.resolve(llm.calls.length >= 1), 60_000, 'the model to be asked');
    await killHard(first);
    expect(isAlive(first.pid!)).toBe(false);
    // Nothing was applied from the lost answer.
    expect(await tdb.db('transactions').whereIn('id', ids).whereNotNull('categorySlug')).toHaveLength(0);

    hold = false;
    release();
    workers.start(env);
    const result = await (await temporal.client()).workflow.getHandle<LlmCategoriesWorkflow>(workflowId).result();
    expect(result).toEqual({ asked: 2, applied: 2, suggested: 0, failed: false });
    expect(llm.calls.length).toBe(2);
    const rows = await tdb.db('transactions').whereIn('id', ids);
    for (const r of rows)
      expect(r).toMatchObject({ categorySlug: 'software', fieldSources: { categorySlug: { by: 'llm', confidence: 0.97 } } });
    const events = await tdb.db('events').where({ teamId, type: 'transaction.updated' }).select('payload');
    for (const id of ids) expect(events.filter((e) => JSON.stringify(e.payload).includes(id))).toHaveLength(1);
  } finally {
    release();
    await llm.close();
  }
}, 150_000);
