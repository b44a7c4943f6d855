import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import type { WebhookDeliveryWorkflow } from '../../shared/temporal/webhook-delivery/contract';
import { claimDueWebhookDeliveries, startClaimedDelivery } from '../../shared/domain/webhook-endpoints/deliveries';
import { emitEvent } from '../../shared/domain/webhook-endpoints/events';
import { createWebhookEndpoint } from '../../shared/domain/webhook-endpoints/service';
import type { Db } from '../../shared/db/knex';
import { createLogger } from '../../shared/logger';
import { testConfig } from './api';
import { createTeamAndOwner } from './fixtures';
import { uniqueTaskQueue } from './worker';
import { startWebhookReceiver } from './webhook-receiver';

/**
 * One `invoice.paid` delivery claimed for a customer's endpoint (a receiver on loopback), on a task
 * queue of its own: `env` is what a worker process for it needs, `start()` starts its
 * WebhookDelivery run, `handle` reads it. The caller closes `receiver` and `temporal`.
 */
export async function claimedWebhookDelivery(
  db: Db,
  databaseUrl: string,
  label: string,
  receiverOpts: Parameters<typeof startWebhookReceiver>[0],
  extraEnv: Record<string, string> = {},
) {
  const env = {
    TEMPORAL_TASK_QUEUE: uniqueTaskQueue(label),
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_WINDOW: '5m',
    WEBHOOK_DISABLE_AFTER: '1h',
    ...extraEnv,
  };
  const config = testConfig({ ...env, DATABASE_URL: databaseUrl });
  const temporal: TemporalGateway = createTemporalGateway({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: env.TEMPORAL_TASK_QUEUE,
  });
  const receiver = await startWebhookReceiver(receiverOpts);
  const owner = await createTeamAndOwner(db, label);
  const endpoint = await createWebhookEndpoint({ db, config }, owner.team.id, { url: receiver.url, eventTypes: ['invoice.paid'] });
  await emitEvent(db, owner.team.id, 'invoice.paid', {
    invoiceId: '6f1f4ab0-3c4e-4d55-9a43-52a8a0c1e001',
    invoiceNumber: 'INV-0042',
    status: 'paid',
    dueDate: '2026-11-30',
    paidAt: '2026-11-25T10:00:00.000Z',
  });
  const [due] = (await claimDueWebhookDeliveries(db, { limit: 10, staleAfterS: 60 })).filter((d) => d.endpointId === endpoint.id);
  const handle = async () => (await temporal.client()).workflow.getHandle<WebhookDeliveryWorkflow>(`webhook-delivery:${due.deliveryId}`);
  return {
    env,
    receiver,
    temporal,
    endpoint,
    deliveryId: due.deliveryId,
    start: () => startClaimedDelivery({ db, temporal, config, logger: createLogger(config) }, due),
    handle,
    /** The attempts recorded so far, oldest first. */
    attempts: () =>
      db('webhook_delivery_attempts')
        .where({ deliveryId: due.deliveryId })
        .orderBy('attempt')
        .select<{ attempt: number; statusCode: number | null }[]>('attempt', 'statusCode'),
  };
}
