import { ScheduleNotFoundError } from '@temporalio/client';
import { bankSyncScheduleId } from '../../shared/temporal/scheduled-bank-sync/contract';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { sendJson, statusAndBody } from '../support/api';
import { eventually } from '../support/eventually';
import { withStack } from '../support/stack';

// Every connection is synced every 2 seconds here (BANK_SYNC_INTERVAL), with no webhook at all.
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});
const stack = withStack('bank-schedule', () => ({ BANK_A_API_URL: bankA.url, BANK_SYNC_INTERVAL: '2s' }));

const call = (method: string, path: string, body?: unknown) =>
  sendJson(stack.api, method, path, stack.acme.sessionToken, body).then(statusAndBody);

describe('scheduled bank sync', () => {
  it('syncs a connection whose webhooks never come, pauses while it is disconnected, and goes with it', async () => {
    const item = bankA.addItem();
    const connection = (await call('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken })).body.data;
    const schedule = (await stack.api.deps.temporal.client()).schedule.getHandle(bankSyncScheduleId(connection.id));
    expect((await schedule.describe()).state.paused).toBe(false);
    const count = async () => Number((await stack.tdb.db('transactions').where({ teamId: stack.acme.team.id }).count('* as n').first())?.n);
    await stack.worker.client.workflow.getHandle(`sync-connection:${connection.id}`).result(); // the initial sync
    const before = await count();

    // New transactions at the bank, and no webhook about them: the schedule brings them in.
    bankA.addTransactions(item.itemId, 3, 500);
    await eventually(async () => (await count()) === before + 3, 30_000, 'the scheduled sync');

    // The bank reports the login broken: the schedule is paused by the webhook itself, not at its next run.
    const broken = await bankA.sign({
      webhook_type: 'ITEM',
      webhook_code: 'ERROR',
      item_id: item.itemId,
      error: { error_code: 'ITEM_LOGIN_REQUIRED', error_message: 'login required' },
      environment: 'sandbox',
    });
    expect((await stack.api.fetch('/webhook/bank-a', { method: 'POST', headers: broken.headers, body: broken.raw })).status).toBe(200);
    expect((await schedule.describe()).state).toMatchObject({ paused: true, note: 'paused while the connection is disconnected' });

    // Repaired: the schedule runs again.
    const repaired = await bankA.sign({
      webhook_type: 'ITEM',
      webhook_code: 'LOGIN_REPAIRED',
      item_id: item.itemId,
      environment: 'sandbox',
    });
    await stack.api.fetch('/webhook/bank-a', { method: 'POST', headers: repaired.headers, body: repaired.raw });
    await eventually(async () => !(await schedule.describe()).state.paused, 30_000, 'the schedule to resume');

    expect((await call('DELETE', `/bank-connections/${connection.id}`)).status).toBe(204);
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  }, 90_000);
});
