import { Client } from 'pg';
import type { Db } from '../../shared/db/knex';
import type { Logger } from '../../shared/logger';
import { connectionOf } from '../auth/credential-cache';

const RECONNECT_AFTER_MS = 1000;

/**
 * Calls `wake` with the payload whenever `channel` is notified (PostgreSQL delivers a NOTIFY when the
 * transaction that sent it commits). Only a shortcut for an outbox relay that also polls: a lost connection is made
 * again after a second, and what was notified meanwhile is found by the next poll.
 */
export function wakeOnNotify(db: Db, channel: string, wake: (payload: string) => void, log: Logger): { close(): Promise<void> } {
  let client: Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const drop = (c: Client) => {
    c.removeAllListeners();
    c.on('error', () => undefined);
    return c.end().catch(() => undefined);
  };

  const connect = async () => {
    if (closed) return;
    const c = new Client({ ...connectionOf(db), application_name: `finops ${channel} listener` });
    client = c;
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = undefined;
      void drop(c);
      if (closed) return;
      if (err) log.warn({ err, channel }, 'lost the notification connection; polling until it is back');
      timer = setTimeout(() => void connect(), RECONNECT_AFTER_MS).unref();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (n) => wake(n.payload ?? ''));
    try {
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch (err) {
      lost(err instanceof Error ? err : new Error(String(err)));
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      if (c) await drop(c);
    },
  };
}
