import { withTestDatabase } from '../support/database';
import { webhookStormAcrossProcesses } from '../support/chaos/scenarios';

const tdb = withTestDatabase();

/**
 * The full storm, 2,000 events (4,000 deliveries), beside the rest of the suite. A reply is sent once
 * only while every attempt records its send well within the claim's lease (sendOnce): a suite that
 * starves the processes until a send and its record outlast the lease shows here as a reply sent twice.
 */
const EVENTS = 2000;

describe('scale-out', () => {
  it('two API processes and two workers act on each of 2,000 webhooks once, though each came twice, out of order', async () => {
    const result = await webhookStormAcrossProcesses({ databaseUrl: tdb.url, temporalAddress: process.env.TEMPORAL_ADDRESS! }, EVENTS);
    console.log(`scale-out: ${JSON.stringify(result)}`);
    expect(result).toMatchObject({ accepted: EVENTS, processed: EVENTS, lost: 0, duplicated: 0 });
    const events = await tdb
      .db('webhook_events')
      .where({ provider: 'messaging' })
      .select('outcome')
      .count<{ outcome: string; count: string }[]>('* as count')
      .groupBy('outcome');
    expect(events).toEqual([{ outcome: 'processed', count: EVENTS }]);
  }, 420_000);
});
