import Redis from 'ioredis';
import { RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../../shared/config';
import type { Db } from '../../shared/db/knex';
import { anyScope } from '../../shared/db/team-wall';

export interface LimiterOptions {
  /** Names the counter family, so one store holds them all. */
  keyPrefix: string;
  points: number;
  durationS: number;
}

/**
 * Makes rate limiters whose counters every API process shares: in Redis when REDIS_URL is set,
 * else in PostgreSQL (the unlogged `rate_limits` table). A limit in process memory would let N
 * processes allow N times the limit and forget it on restart.
 */
export interface LimiterStore {
  limiter(options: LimiterOptions): RateLimiterAbstract;
  close(): Promise<void>;
}

export function createLimiterStore(config: Pick<Config, 'REDIS_URL'>, db: Db): LimiterStore {
  if (config.REDIS_URL) {
    // Commands wait for the connection (the first requests of a process must count too); a Redis that
    // is down fails a command after one reconnect attempt, and the limiter then lets the request through.
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    return {
      limiter: (o) => new RateLimiterRedis({ storeClient: redis, keyPrefix: o.keyPrefix, points: o.points, duration: o.durationS }),
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  return {
    limiter: (o) =>
      anyScopeCalls(
        new RateLimiterPostgres({
          storeClient: db,
          storeType: 'knex',
          tableName: 'rate_limits',
          tableCreated: true,
          keyPrefix: o.keyPrefix,
          points: o.points,
          duration: o.durationS,
        }),
      ),
    close: () => Promise.resolve(),
  };
}

const COUNTING = new Set(['consume', 'get', 'penalty', 'reward', 'set', 'block', 'delete']);

/** The counters belong to no team: their queries take any pooled connection as it is (shared/db/team-wall.ts). */
function anyScopeCalls<T extends RateLimiterAbstract>(limiter: T): T {
  return new Proxy(limiter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !COUNTING.has(String(property))) return value;
      return (...args: unknown[]) => anyScope(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}
