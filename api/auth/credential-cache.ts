import { Client, type ClientConfig } from 'pg';
import type { Db } from '../../shared/db/knex';
import type { Logger } from '../../shared/logger';

/** The channel migration 0053's triggers notify when a row authentication depends on changes. */
export const AUTH_CHANGED_CHANNEL = 'auth_changed';

/**
 * Per-process memory of credential lookups (key hash → key, token hash → token, user → session), so
 * a request costs no authentication query (only a shared empty one). It is only used while this process LISTENs on
 * `auth_changed`: every change to a key, token, application, member, user or team notifies at commit,
 * before the change's own response is sent, and the whole memory is dropped; a hit is only trusted
 * after a round trip on the listening connection has flushed what PostgreSQL owes it (see `fence`).
 * A deleted key is thus refused by every process on the next request. While the listening connection is down (PostgreSQL
 * restarting) every lookup goes to the database, and the memory starts empty once it is back.
 * Only found credentials are kept: a wrong guess always costs a query, and cannot fill the memory.
 */
export interface CredentialCache {
  lookup<T extends object>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined>;
  /** What memory holds for the key, without asking the database. */
  peek<T extends object>(key: string): Promise<T | undefined>;
  close(): Promise<void>;
}

export interface CredentialCacheOptions {
  /** How long an entry may be used without a notification; 0 turns the cache off. */
  ttlMs: number;
  maxEntries?: number;
  logger: Pick<Logger, 'warn' | 'debug'>;
}

const RECONNECT_AFTER_MS = 1000;
/** How the listening connection shows in `pg_stat_activity`. */
export const LISTENER_NAME = 'finops credential cache';

export function createCredentialCache(db: Db, { ttlMs, maxEntries = 10_000, logger }: CredentialCacheOptions): CredentialCache {
  if (ttlMs <= 0) return { lookup: (_key, load) => load(), peek: () => Promise.resolve(undefined), close: () => Promise.resolve() };

  const entries = new Map<string, { value: object; until: number }>();
  // Bumped on every notification and connection change: a lookup that started before one of them
  // may have read the old row, so its result is not kept.
  let generation = 0;
  // Fields, not variables: they change across awaits, under the feet of the code that reads them.
  const state = { listening: false, closed: false };
  let client: Client | undefined;
  let connecting: Promise<void> | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const forget = () => {
    generation++;
    entries.clear();
  };

  const lost = (err?: Error) => {
    if (!state.listening && !client) return;
    state.listening = false;
    forget();
    const old = client;
    client = undefined;
    old?.removeAllListeners();
    old?.on('error', () => undefined);
    void old?.end().catch(() => undefined);
    if (err) logger.warn({ err }, 'credential cache: lost its notification connection; looking up every request until it is back');
    if (!state.closed) reconnectTimer ??= setTimeout(() => ((reconnectTimer = undefined), void listen()), RECONNECT_AFTER_MS).unref();
  };

  const listen = (): Promise<void> => {
    if (state.closed || state.listening) return Promise.resolve();
    connecting ??= (async () => {
      const c = new Client({ ...connectionOf(db), application_name: LISTENER_NAME });
      c.on('error', (err) => lost(err));
      c.on('end', () => lost());
      c.on('notification', (n) => {
        if (n.channel === AUTH_CHANGED_CHANNEL) forget();
      });
      client = c;
      try {
        await c.connect();
        await c.query(`listen ${AUTH_CHANGED_CHANNEL}`);
        if (state.closed) throw new Error('closed');
        forget();
        state.listening = true;
      } catch (err) {
        lost(state.closed ? undefined : (err as Error));
      }
    })().finally(() => (connecting = undefined));
    return connecting;
  };

  // A read barrier on the listening connection. PostgreSQL signals every listener when a change
  // commits, before the changing request is answered, and a listener's backend sends what it owes
  // before it answers the next query on that connection. So once a query sent after a request
  // arrived comes back, every notification committed before that request has been handled here.
  // Requests arriving while one barrier is on the wire share the next one: under load it costs one
  // round trip per batch of requests, not one per request.
  let barrier: Promise<void> | undefined;
  let nextBarrier: Promise<void> | undefined;
  // pg's callback form: its promise form kept each barrier's continuation (the requests waiting on
  // it) alive through young-generation collections (shared/db/prepared.ts says more).
  const send = () =>
    new Promise<void>((resolve, reject) => {
      if (!client) return reject(new Error('not listening'));
      // The empty query: answered with EmptyQueryResponse and ReadyForQuery, no row to describe, send
      // or parse; what the backend owes comes before them as before any other answer.
      // pg's types say the error is always given; it is null on success.
      client.query('', (err: Error | null) => (err ? reject(err) : resolve()));
    });
  const fence = (): Promise<void> => {
    if (!barrier) {
      barrier = send().finally(() => (barrier = undefined));
      return barrier;
    }
    nextBarrier ??= barrier
      .catch(() => undefined)
      .then(() => {
        nextBarrier = undefined;
        return fence();
      });
    return nextBarrier;
  };

  const remembered = async (key: string): Promise<object | undefined> => {
    const hit = entries.get(key);
    if (!hit || hit.until <= Date.now()) return undefined;
    const seen = generation;
    try {
      await fence();
    } catch {
      return undefined; // the connection is failing: its error handler forgets everything
    }
    return seen === generation && state.listening ? hit.value : undefined;
  };

  return {
    async peek<T extends object>(key: string) {
      if (!state.listening) return undefined;
      return (await remembered(key)) as T | undefined;
    },
    async lookup(key, load) {
      if (!state.listening) {
        void listen();
        return load();
      }
      const hit = await remembered(key);
      if (hit) return hit as Awaited<ReturnType<typeof load>>;
      const seen = generation;
      const value = await load();
      // Losing the connection bumps the generation too.
      if (value !== undefined && seen === generation) {
        const oldest = entries.keys().next();
        if (entries.size >= maxEntries && !oldest.done) entries.delete(oldest.value);
        entries.set(key, { value, until: Date.now() + ttlMs });
      }
      return value;
    },
    async close() {
      state.closed = true;
      clearTimeout(reconnectTimer);
      await connecting;
      const c = client;
      state.listening = false;
      client = undefined;
      entries.clear();
      c?.removeAllListeners();
      c?.on('error', () => undefined);
      await c?.end().catch(() => undefined);
    },
  };
}

/** The connection settings of the knex instance, so the listener reaches the very database the queries do. */
export function connectionOf(db: Db): ClientConfig {
  const connection = (db.client as { config: { connection: unknown } }).config.connection;
  if (typeof connection === 'string') return { connectionString: connection };
  if (typeof connection === 'object' && connection !== null) {
    // knex keeps the password it parsed from the URL non-enumerable (out of logs): a spread alone
    // would drop it, and against a server that asks for one the listener could never connect.
    const { password } = connection as Pick<ClientConfig, 'password'>;
    return { ...connection, ...(password !== undefined && { password }) };
  }
  throw new Error('the credential cache needs a static connection setting');
}
