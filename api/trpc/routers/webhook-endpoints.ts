import { z } from 'zod';
import { pageOf } from '../../../shared/domain/common/page';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from '../../../shared/domain/webhook-endpoints/service';
import {
  createWebhookEndpointBody,
  listWebhookDeliveriesQuery,
  listWebhookEndpointsQuery,
  updateWebhookEndpointBody,
  webhookDeliveryIdParams,
  webhookDeliverySchema,
  webhookEndpointIdParams,
  webhookEndpointSchema,
  webhookEndpointWithSecretSchema,
} from '../../../shared/domain/webhook-endpoints/schema';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const webhookEndpointsRouter = (deps: Pick<ApiDeps, 'db' | 'config' | 'temporal' | 'logger'>) => {
  const { db } = deps;
  return router({
    list: procedure('teams.read')
      .input(listWebhookEndpointsQuery.prefault({}))
      .output(pageOf(webhookEndpointSchema))
      .query(({ ctx, input }) => listWebhookEndpoints(db, ctx.principal.teamId, input)),
    getById: procedure('teams.read')
      .input(webhookEndpointIdParams)
      .output(webhookEndpointSchema)
      .query(({ ctx, input }) => getWebhookEndpoint(db, ctx.principal.teamId, input.id)),
    create: procedure('teams.write')
      .input(createWebhookEndpointBody)
      .output(webhookEndpointWithSecretSchema)
      .mutation(({ ctx, input }) => createWebhookEndpoint(deps, ctx.principal.teamId, input)),
    update: procedure('teams.write')
      .input(webhookEndpointIdParams.extend({ data: updateWebhookEndpointBody }))
      .output(webhookEndpointSchema)
      .mutation(({ ctx, input }) => updateWebhookEndpoint(deps, ctx.principal.teamId, input.id, input.data)),
    delete: procedure('teams.write')
      .input(webhookEndpointIdParams)
      .output(z.void())
      .mutation(async ({ ctx, input }) => {
        await deleteWebhookEndpoint(db, ctx.principal.teamId, input.id);
      }),
    rotateSecret: procedure('teams.write')
      .input(webhookEndpointIdParams)
      .output(webhookEndpointWithSecretSchema)
      .mutation(({ ctx, input }) => rotateWebhookSecret(deps, ctx.principal.teamId, input.id)),
    sendTest: procedure('teams.write')
      .input(webhookEndpointIdParams)
      .output(webhookDeliverySchema)
      .mutation(({ ctx, input }) => sendTestWebhook(deps, ctx.principal.teamId, input.id)),
    deliveries: procedure('teams.read')
      .input(webhookEndpointIdParams.extend(listWebhookDeliveriesQuery.shape))
      .output(pageOf(webhookDeliverySchema))
      .query(({ ctx, input }) => listWebhookDeliveries(db, ctx.principal.teamId, input.id, input)),
    delivery: procedure('teams.read')
      .input(webhookDeliveryIdParams)
      .output(webhookDeliverySchema)
      .query(({ ctx, input }) => getWebhookDelivery(db, ctx.principal.teamId, input.id, input.deliveryId)),
    replayDelivery: procedure('teams.write')
      .input(webhookDeliveryIdParams)
      .output(webhookDeliverySchema)
      .mutation(({ ctx, input }) => replayWebhookDelivery(deps, ctx.principal.teamId, input.id, input.deliveryId)),
  });
};
