import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { TemporalGateway } from '../client';
import { Stage, TeamId, WebhookEndpointId } from '../search-attribute-keys';
import { summaryLine } from '../summary';
import { webhookDeliveryContract, webhookDeliveryId, type WebhookDeliveryInput, type WebhookDeliveryWorkflow } from './contract';

/**
 * The event and where it goes, by host: `Webhook · invoice.paid → hooks.example.com`. The rest of
 * the URL can carry a token of the receiver's, so it stays out of the list.
 */
const summaryOf = (about: { eventType: string; url: string | null }) => summaryLine('Webhook', `${about.eventType} → ${hostOf(about.url)}`);

function hostOf(url: string | null): string {
  try {
    return url ? new URL(url).host : 'an endpoint gone';
  } catch {
    return 'an endpoint';
  }
}

/**
 * Starts the delivery's run unless one is running. Unlike startOnce, a closed run does not stop a
 * new one: that is a replay (the delivery row, not the workflow id, says whether a start is due).
 * Returns the workflow id.
 */
export async function startWebhookDelivery(
  temporal: TemporalGateway,
  input: WebhookDeliveryInput,
  about: { eventType: string; url: string | null },
): Promise<string> {
  const client = await temporal.client();
  const workflowId = webhookDeliveryId(input.deliveryId);
  try {
    await client.workflow.start<WebhookDeliveryWorkflow>(webhookDeliveryContract.workflowType, {
      taskQueue: temporal.options.taskQueue,
      workflowId,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      typedSearchAttributes: new TypedSearchAttributes([
        { key: TeamId, value: input.teamId },
        { key: WebhookEndpointId, value: input.endpointId },
        { key: Stage, value: input.continueFrom ? 'waiting_to_retry' : 'sending' },
      ]),
      staticSummary: summaryOf(about),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}
