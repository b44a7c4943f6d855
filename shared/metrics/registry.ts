import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Db } from '../db/knex';

/** What tarn (knex's pool) tells of itself. */
interface PoolState {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * A process's registry: prom-client's process metrics (CPU, memory, event-loop delay, GC) and the
 * PostgreSQL pool's saturation, read when scraped. One registry per process, never prom-client's
 * global one: tests build several apps in one process.
 */
export function processRegistry(db: Db, opts: { processMetrics: boolean }): Registry {
  const registry = new Registry();
  // Off where a process builds many registries (tests): each set watches the event loop and GC for good.
  if (opts.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'finops_' });
  const pool = () => (db.client as { pool?: PoolState }).pool;
  const gauge = (name: string, help: string, read: (p: PoolState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const p = pool();
        this.set(p ? read(p) : 0);
      },
    });
  gauge('finops_db_pool_max', 'PostgreSQL connections the pool may open (DATABASE_POOL_MAX).', (p) => p.max);
  gauge('finops_db_pool_used', 'PostgreSQL connections lent out to a query or transaction.', (p) => p.numUsed());
  gauge('finops_db_pool_free', 'PostgreSQL connections open and idle.', (p) => p.numFree());
  gauge('finops_db_pool_pending', 'Queries waiting for a connection (pending acquires): above 0 for long, the pool is saturated.', (p) =>
    p.numPendingAcquires(),
  );
  gauge('finops_db_pool_creating', 'Connections being opened.', (p) => p.numPendingCreates());
  return registry;
}
