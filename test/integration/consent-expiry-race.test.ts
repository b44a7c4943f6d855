import type { Client } from '@temporalio/client';
import { recordConsentExpiry } from '../../shared/domain/bank-connections/consent';
import { bankConsentWorkflowId } from '../../shared/temporal/bank-consent/contract';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { uniqueTaskQueue } from '../support/worker';

let temporal: TemporalGateway;
const tdb = withTestDatabase({
  setUp: () => {
    const config = testConfig();
    temporal = createTemporalGateway({
      address: config.TEMPORAL_ADDRESS,
      namespace: config.TEMPORAL_NAMESPACE,
      // No worker polls it: the test reads what the timer was told from its history.
      taskQueue: uniqueTaskQueue('consent-race'),
    });
  },
  tearDown: async () => {
    await temporal?.close();
  },
});

/** The same gateway, whose signal-with-start carrying `slowFor` reaches Temporal `ms` late (a slow network, a busy server). */
function slowFor(expiresAt: Date, ms: number): TemporalGateway {
  const slowed = (client: Client): Client => {
    const workflow = new Proxy(client.workflow, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'signalWithStart' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const opts = args[1] as { signalArgs: [{ expiresAt: string }] };
          if (opts.signalArgs[0].expiresAt === expiresAt.toISOString()) await new Promise((r) => setTimeout(r, ms));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return new Proxy(client, { get: (target, prop, receiver) => (prop === 'workflow' ? workflow : Reflect.get(target, prop, receiver)) });
  };
  return { ...temporal, options: temporal.options, client: async () => slowed(await temporal.client()) };
}

/** The expiry the connection's timer was told last (its start, then each change signalled). */
async function timerExpiry(connectionId: string): Promise<string | null> {
  const history = await (await temporal.client()).workflow.getHandle(bankConsentWorkflowId(connectionId)).fetchHistory();
  const decode = (p: { data?: Uint8Array | null } | undefined) =>
    JSON.parse(Buffer.from(p!.data!).toString('utf8')) as { expiresAt: string | null };
  let last: string | null = null;
  for (const e of history.events ?? []) {
    if (e.workflowExecutionStartedEventAttributes) last = decode(e.workflowExecutionStartedEventAttributes.input?.payloads?.[0]).expiresAt;
    if (e.workflowExecutionSignaledEventAttributes)
      last = decode(e.workflowExecutionSignaledEventAttributes.input?.payloads?.[0]).expiresAt;
  }
  return last;
}

/** A connected bank-a connection of a new team. */
async function connectedConnection(teamName: string, reference: string) {
  const owner = await createTeamAndOwner(tdb.db, teamName);
  const [row] = await tdb
    .db('bank_connections')
    .insert({ teamId: owner.team.id, provider: 'bank-a', referenceId: `${reference}_${Date.now()}`, status: 'connected' })
    .returning<{ id: string }[]>('id');
  return { id: row.id, teamId: owner.team.id };
}

const consentDeps = (gateway: TemporalGateway) => ({
  db: tdb.db,
  temporal: gateway,
  logger: { error: () => undefined },
  config: { BANK_CONSENT_NOTICE_LEAD: 7 * 24 * 3600_000 },
});

const endTimer = async (connectionId: string) =>
  (await temporal.client()).workflow
    .getHandle(bankConsentWorkflowId(connectionId))
    .terminate('test over')
    .catch(() => undefined);

describe('consent expiry: the row and the timer move together', () => {
  it("a reading older than the recorded one is dropped: a sync's 'no expiry', read before the webhook's date arrived, does not undo it", async () => {
    const conn = await connectedConnection('Consent stale read', 'item_stale');
    const deps = consentDeps(temporal);
    const announced = new Date(Date.now() + 30 * 24 * 3600_000);
    const syncRead = new Date(Date.now() - 1000);
    const stored = () =>
      tdb
        .db('bank_connections')
        .where({ id: conn.id })
        .first<{ consentExpiresAt: Date | null; consentObservedAt: Date | null }>('consentExpiresAt', 'consentObservedAt');
    try {
      const webhookArrived = new Date();
      await recordConsentExpiry(deps, conn, announced, webhookArrived);
      await recordConsentExpiry(deps, conn, null, syncRead);
      expect(await stored()).toEqual({ consentExpiresAt: announced, consentObservedAt: webhookArrived });
      expect(await timerExpiry(conn.id)).toBe(announced.toISOString());

      // A later reading is the bank's newer word, whatever it says: the consent was renewed without an end.
      const later = new Date(Date.now() + 1000);
      await recordConsentExpiry(deps, conn, null, later);
      expect(await stored()).toEqual({ consentExpiresAt: null, consentObservedAt: later });
    } finally {
      await endTimer(conn.id);
    }
  });

  it('two expiries reported at once (a webhook and a sync) leave the timer on the one the row keeps', async () => {
    const conn = await connectedConnection('Consent race', 'item_race');
    const first = new Date(Date.now() + 60 * 24 * 3600_000);
    const second = new Date(Date.now() + 90 * 24 * 3600_000);
    try {
      // The first change is slow to reach Temporal; the second starts while it is on its way.
      await Promise.all([
        recordConsentExpiry(consentDeps(slowFor(first, 600)), conn, first, new Date()),
        new Promise((r) => setTimeout(r, 100)).then(() => recordConsentExpiry(consentDeps(temporal), conn, second, new Date())),
      ]);
      const stored = await tdb.db('bank_connections').where({ id: conn.id }).first('consentExpiresAt');
      const kept = (stored as { consentExpiresAt: Date }).consentExpiresAt.toISOString();
      expect(kept).toBe(second.toISOString());
      expect(await timerExpiry(conn.id)).toBe(kept);
    } finally {
      await endTimer(conn.id);
    }
  });
});
