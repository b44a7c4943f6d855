import { withTestDatabase } from '../support/database';
import { apiKilledDuringBurst, postgresRestartDuringReceipts, postgresRestartDuringSync, temporalOutage } from '../support/chaos/scenarios';

/**
 * The fault scenarios at test size (bench/chaos.ts runs them at full size). Each prints what it
 * counted; nothing accepted may be lost, nothing done twice.
 */
const tdb = withTestDatabase();

const services = () => ({ databaseUrl: tdb.url, temporalAddress: process.env.TEMPORAL_ADDRESS! });

describe('faults', () => {
  it('kill -9 of the API during a webhook burst: every event that got a 200 is acted on, once', async () => {
    const result = await apiKilledDuringBurst(services(), 300);
    console.log(`faults: ${JSON.stringify(result)}`);
    expect(result).toMatchObject({ accepted: 300, lost: 0, duplicated: 0 });
  }, 240_000);

  it('Temporal down while webhooks arrive: they are answered 200, and their workflows run once it is back', async () => {
    const result = await temporalOutage(services(), 100, 6);
    console.log(`faults: ${JSON.stringify(result)}`);
    expect(result).toMatchObject({ accepted: 100, lost: 0, duplicated: 0 });
  }, 300_000);

  it('PostgreSQL restarted during a bank sync: exactly the provider transactions, none twice', async () => {
    const result = await postgresRestartDuringSync(services(), 3000);
    console.log(`faults: ${JSON.stringify(result)}`);
    expect(result).toMatchObject({ accepted: 3000, processed: 3000, lost: 0, duplicated: 0 });
  }, 300_000);

  it('PostgreSQL restarted during receipt ingestion: each receipt one inbox item, one document, matched', async () => {
    const result = await postgresRestartDuringReceipts(services(), 9);
    console.log(`faults: ${JSON.stringify(result)}`);
    expect(result).toMatchObject({ accepted: 9, processed: 9, lost: 0, duplicated: 0 });
  }, 300_000);
});
