import { createTestDatabase, type TestDatabase } from '../support/database';
import { webhookStormAcrossProcesses } from '../support/chaos/scenarios';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

describe('scale-out', () => {
  it('two API processes and two workers act on each of 2,000 webhooks once, though each came twice, out of order', async () => {
    const result = await webhookStormAcrossProcesses({ databaseUrl: tdb.url, temporalAddress: process.env.TEMPORAL_ADDRESS! }, 2000);
    console.log(`scale-out: ${JSON.stringify(result)}`);
    expect(result).toMatchObject({ accepted: 2000, processed: 2000, lost: 0, duplicated: 0 });
    const events = await tdb
      .db('webhook_events')
      .where({ provider: 'messaging' })
      .select('outcome')
      .count<{ outcome: string; count: string }[]>('* as count')
      .groupBy('outcome');
    expect(events).toEqual([{ outcome: 'processed', count: 2000 }]);
    // A loaded CI machine took 245 s for the storm; the scenario itself gives up waiting for answers after 180 s.
  }, 420_000);
});
