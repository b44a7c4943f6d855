import { Client } from 'pg';
import { connectionOf } from '../../api/auth/credential-cache';
import { createDb } from '../../shared/db/knex';

describe('the listeners connect as the queries do', () => {
  it('keeps the password of the database URL and the session settings', async () => {
    // Nothing connects: a pg Client resolves its settings when it is made.
    const db = createDb({ url: 'postgres://finops:s3cret%2Fpass@db.internal:6543/finops' });
    try {
      // As the listeners use it: spread into a pg Client's settings beside their own.
      const client = new Client({ ...connectionOf(db), application_name: 'listener' });
      const settings = (client as unknown as { connectionParameters: Record<string, unknown> }).connectionParameters;
      expect(settings).toMatchObject({
        user: 'finops',
        password: 's3cret/pass',
        host: 'db.internal',
        port: 6543,
        database: 'finops',
        options: '-c jit=off',
        application_name: 'listener',
      });
    } finally {
      await db.destroy();
    }
  });
});
