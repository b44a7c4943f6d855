import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivityDeps } from '../../activities/deps';
import { receiptActivities } from '../../activities/receipts/ingest';
import { startMessagingFake } from '../fakes/messaging';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';

let tdb: TestDatabase;
let messaging: Awaited<ReturnType<typeof startMessagingFake>>;
beforeAll(async () => {
  tdb = await createTestDatabase();
  messaging = await startMessagingFake('tok');
});
afterAll(async () => {
  await messaging?.close();
  await tdb?.drop();
});

/** An attempt of one activity of one run, as Temporal describes it to the activity. */
const attempt = (activityId: string, attemptNo: number) =>
  new MockActivityEnvironment({
    activityId,
    attempt: attemptNo,
    workflowExecution: { workflowId: 'chat-reply:wamid.once', runId: 'run-1' },
  });

describe('chat messages go out once per activity, whatever Temporal retries', () => {
  it('a retry of an attempt that sent (but whose completion was lost) sends nothing; another activity sends', async () => {
    const deps = createActivityDeps(testConfig({ MESSAGING_API_URL: messaging.url, MESSAGING_ACCESS_TOKEN: 'tok' }), tdb.db);
    const sendMessage = (input: { to: string; text: string }) => receiptActivities(deps).sendMessage(input);
    const message = { to: '4917000000042', text: 'Receipt saved to your inbox.' };
    await attempt('1', 1).run(sendMessage, message);
    await attempt('1', 2).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(1);
    await attempt('2', 1).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(2);
  });

  it('a failed send is not recorded, so its retry sends', async () => {
    const deps = createActivityDeps(testConfig({ MESSAGING_API_URL: messaging.url, MESSAGING_ACCESS_TOKEN: 'tok' }), tdb.db);
    const sendMessage = (input: { to: string; text: string }) => receiptActivities(deps).sendMessage(input);
    const message = { to: '4917000000043', text: 'Match confirmed.' };
    messaging.setUnavailable(true);
    await expect(attempt('7', 1).run(sendMessage, message)).rejects.toThrow();
    messaging.setUnavailable(false);
    await attempt('7', 2).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(1);
  });

  it('a retry that starts while a timed-out attempt is still sending waits for it instead of sending too', async () => {
    const deps = createActivityDeps(testConfig({ MESSAGING_API_URL: messaging.url, MESSAGING_ACCESS_TOKEN: 'tok' }), tdb.db);
    const sendMessage = (input: { to: string; text: string }) => receiptActivities(deps).sendMessage(input);
    const message = { to: '4917000000044', text: 'Receipt saved to your inbox.' };
    messaging.setDelay(1500); // the provider is slow: Temporal gave up on attempt 1 and started attempt 2
    const first = attempt('9', 1).run(sendMessage, message);
    await new Promise((r) => setTimeout(r, 300));
    await expect(attempt('9', 2).run(sendMessage, message)).rejects.toMatchObject({ type: 'SendInProgress' });
    await first;
    messaging.setDelay(0);
    await attempt('9', 3).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(1);
  });
});
