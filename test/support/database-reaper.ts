import { Client } from 'pg';

/** The channel test files name a database on when they are done with it. */
export const REAP_CHANNEL = 'finops_test_reap';

export interface DatabaseReaper {
  /** Drops what is still queued, then stops listening. */
  stop(): Promise<void>;
}

/**
 * Drops the databases test files are done with, in the suite's main process, while the test workers
 * go on with their next files: a DROP DATABASE waits on the server's buffers and files for a second
 * or more, which each file otherwise spent at its end. Anything a file never handed over (it
 * crashed) the global teardown drops by name.
 */
export async function startDatabaseReaper(adminUrl: string): Promise<DatabaseReaper> {
  const listener = new Client({ connectionString: adminUrl });
  await listener.connect();
  const dropper = new Client({ connectionString: adminUrl });
  await dropper.connect();
  let queue = Promise.resolve();
  listener.on('notification', (n) => {
    const name = n.payload ?? '';
    // Only what the suite itself named: a clone's name is letters, digits and underscores.
    if (!/^finops_t_\w+$/.test(name)) return;
    queue = queue.then(() => dropper.query(`drop database if exists "${name}" with (force)`).then(() => undefined)).catch(() => undefined);
  });
  await listener.query(`listen ${REAP_CHANNEL}`);
  return {
    async stop() {
      await listener.end();
      await queue;
      await dropper.end();
    },
  };
}
