import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivityDeps } from '../../activities/deps';
import { receiptActivities } from '../../activities/receipts/ingest';
import { startMessagingFake } from '../fakes/messaging';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';

let messaging: Awaited<ReturnType<typeof startMessagingFake>>;
const tdb = withTestDatabase({
  setUp: async () => {
    messaging = await startMessagingFake('tok');
  },
  tearDown: async () => {
    await messaging?.close();
  },
});

/** The sendMessage activity against the messaging provider at `url`. */
function sendMessageVia(url: string) {
  const deps = createActivityDeps(testConfig({ MESSAGING_API_URL: url, MESSAGING_ACCESS_TOKEN: 'tok' }), tdb.db);
  return (input: { to: string; text: string }) => receiptActivities(deps).sendMessage(input);
}

/** An attempt of one activity of one run, as Temporal describes it to the activity. */
const attempt = (activityId: string, attemptNo: number) =>
  new MockActivityEnvironment({
    activityId,
    attempt: attemptNo,
    workflowExecution: { workflowId: 'chat-reply:wamid.once', runId: 'run-1' },
  });

describe('chat messages go out once per activity, whatever Temporal retries', () => {
  it('a retry of an attempt that sent (but whose completion was lost) sends nothing; another activity sends', async () => {
    const sendMessage = sendMessageVia(messaging.url);
    const message = { to: '4917000000042', text: 'Receipt saved to your inbox.' };
    await attempt('1', 1).run(sendMessage, message);
    await attempt('1', 2).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(1);
    await attempt('2', 1).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(2);
  });

  it('a failed send is not recorded, so its retry sends', async () => {
    const sendMessage = sendMessageVia(messaging.url);
    const message = { to: '4917000000043', text: 'Match confirmed.' };
    messaging.setUnavailable(true);
    await expect(attempt('7', 1).run(sendMessage, message)).rejects.toThrow();
    messaging.setUnavailable(false);
    await attempt('7', 2).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(1);
  });

  it('a retry that starts while a timed-out attempt is still sending waits for it instead of sending too', async () => {
    const sendMessage = sendMessageVia(messaging.url);
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

  it('a send that broke off after the provider took it is not repeated while its claim holds; after the lease it is', async () => {
    const sendMessage = sendMessageVia(messaging.url);
    const message = { to: '4917000000045', text: 'Receipt saved to your inbox.' };
    messaging.setDropAnswers(true);
    await expect(attempt('11', 1).run(sendMessage, message)).rejects.toThrow();
    messaging.setDropAnswers(false);
    // Nobody knows whether the person got it: the retry does not send while the claim holds.
    await expect(attempt('11', 2).run(sendMessage, message)).rejects.toMatchObject({ type: 'SendInProgress' });
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(1);
    // Once the lease has passed, a retry sends: a message may come twice, it is never lost.
    await tdb
      .db('sent_messages')
      .where({ activityKey: 'chat-reply:wamid.once/run-1/11' })
      .update({ claimedAt: tdb.db.raw("now() - interval '3 minutes'") });
    await attempt('11', 3).run(sendMessage, message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(2);
  });

  it('a provider that cannot be reached took nothing, so the retry sends at once', async () => {
    const closed = await startMessagingFake('tok');
    await closed.close();

    const message = { to: '4917000000046', text: 'Match confirmed.' };
    await expect(attempt('12', 1).run(sendMessageVia(closed.url), message)).rejects.toThrow();
    await attempt('12', 2).run(sendMessageVia(messaging.url), message);
    expect(messaging.sent.filter((s) => s.to === message.to)).toHaveLength(1);
  });
});
