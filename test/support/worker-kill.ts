import type { TemporalGateway } from '../../shared/temporal/client';
import { testConfig } from './api';
import { withTestDatabase } from './database';
import { workerProcesses } from './processes';
import { temporalGatewayOf } from './worker';

/**
 * What a worker-kill test file sets up: its database, its worker processes (`workers.start(env)`),
 * and `temporal(env)`, a gateway to the task queue `env` names. After the file every worker still
 * running is killed and every gateway closed.
 */
export function workerKillTest() {
  const gateways: TemporalGateway[] = [];
  const tdb = withTestDatabase({
    tearDown: async () => {
      await workers.killAll();
      for (const g of gateways) await g.close();
    },
  });
  const workers = workerProcesses(() => tdb.url);
  const temporal = (env: { TEMPORAL_TASK_QUEUE: string }): TemporalGateway => {
    const gateway = temporalGatewayOf(testConfig(env));
    gateways.push(gateway);
    return gateway;
  };
  return { tdb, workers, temporal };
}
