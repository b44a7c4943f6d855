import type { Server } from 'node:http';
import { loadConfig, type Config } from '../shared/config';
import { createDb } from '../shared/db/knex';
import { createLogger } from '../shared/logger';
import { temporalGatewayOptions } from '../shared/temporal/connection-options';
import { useFontDir } from '../shared/domain/invoices/fonts';
import { createTemporalGateway } from '../shared/temporal/client';
import { startTracing } from '../shared/tracing/start';
import { tracedTemporalClient } from '../shared/tracing/temporal-client';
import { createApp } from './app';
import { createApiDeps } from './deps';
import { startWebhookRelay } from './webhooks/relay';
import { startNotificationRelay } from './outbox/notification-relay';
import { startWebhookDeliveryRelay } from './outbox/webhook-delivery-relay';
import { startDocumentSweep } from './outbox/document-sweep';
import { startEventSweep } from './outbox/event-sweep';
import { startRegistrationSweep } from './outbox/registration-sweep';
import { closeServer, keepConnectionsLongerThanClients } from './http/keep-alive';
import { ApiMetrics } from './metrics';
import { serveMetrics } from '../shared/metrics/server';

export interface RunningApi {
  server: Server;
  url: string;
  /** Where Prometheus scrapes this process (METRICS_HOST:METRICS_PORT). */
  metricsUrl: string;
  stop(): Promise<void>;
}

export async function startApi(config: Config): Promise<RunningApi> {
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required by the API');
  const logger = createLogger(config, { process: 'api' });
  useFontDir(config.PDF_FONT_DIR);
  // Before the pool and the server open, so their first query and request are seen.
  const tracing = await startTracing(config, 'api');
  if (tracing) logger.info({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing on');
  const db = createDb({ url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX, logger });
  const temporal = createTemporalGateway({
    ...temporalGatewayOptions(config),
    ...(tracing ? { interceptors: await tracedTemporalClient() } : {}),
  });
  const metrics = new ApiMetrics(db, { processMetrics: true });
  const deps = createApiDeps({ config, db, temporal, logger }, { metrics });
  const metricsServer = await serveMetrics({
    host: config.METRICS_HOST,
    port: config.METRICS_PORT,
    scrape: async () => ({ contentType: metrics.registry.contentType, body: await metrics.registry.metrics() }),
  }).catch(async (err: unknown) => {
    await temporal.close();
    await db.destroy();
    await tracing?.shutdown();
    throw new Error(`/metrics cannot listen on ${config.METRICS_HOST}:${config.METRICS_PORT} (METRICS_PORT): ${(err as Error).message}`, {
      cause: err,
    });
  });
  logger.info({ url: metricsServer.url }, 'metrics listening');
  const app = createApp(deps);
  const relay = startWebhookRelay(deps, {
    intervalMs: config.WEBHOOK_RELAY_INTERVAL,
    staleAfterS: config.WEBHOOK_RELAY_STALE_AFTER / 1000,
  });
  const notificationRelay = startNotificationRelay(deps, { intervalMs: config.NOTIFICATION_RELAY_INTERVAL });
  const webhookDeliveryRelay = startWebhookDeliveryRelay(deps, { intervalMs: config.WEBHOOK_DELIVERY_RELAY_INTERVAL });
  const documentSweep = startDocumentSweep(deps, { intervalMs: config.DOCUMENT_SWEEP_INTERVAL, graceMs: config.DOCUMENT_PENDING_GRACE });
  const eventSweep = startEventSweep(deps, { intervalMs: config.EVENTS_SWEEP_INTERVAL, retentionMs: config.EVENTS_RETENTION });
  const registrationSweep = startRegistrationSweep(deps, { intervalMs: config.OAUTH_REGISTRATION_SWEEP_INTERVAL });
  const server = await new Promise<Server>((resolve) => {
    const s = keepConnectionsLongerThanClients(app.listen(config.PORT, config.HOST, () => resolve(s)));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  logger.info({ url }, 'api listening');
  return {
    server,
    url,
    metricsUrl: metricsServer.url,
    /** Stops accepting at once, lets requests in flight finish within SHUTDOWN_GRACE, then stops the background passes. */
    async stop() {
      logger.info({ graceMs: config.SHUTDOWN_GRACE }, 'api stopping: no new connections, draining requests in flight');
      await closeServer(server, config.SHUTDOWN_GRACE);
      await metricsServer.close();
      await relay.stop();
      await notificationRelay.stop();
      await webhookDeliveryRelay.stop();
      await documentSweep.stop();
      await eventSweep.stop();
      await deps.eventWake.close();
      await registrationSweep.stop();
      await deps.limiters.close();
      await deps.credentials.close();
      await temporal.close();
      await db.destroy();
      await tracing?.shutdown();
      logger.info('api stopped');
    },
  };
}

if (require.main === module) {
  const config = loadConfig();
  startApi(config).then(
    (api) => {
      const stop = () =>
        void api.stop().then(
          () => process.exit(0),
          (err: unknown) => {
            createLogger(config, { process: 'api' }).error({ err }, 'API did not stop cleanly');
            process.exit(1);
          },
        );
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (err: unknown) => {
      createLogger(config, { process: 'api' }).fatal({ err }, 'API failed to start');
      process.exit(1);
    },
  );
}
