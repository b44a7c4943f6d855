import { connectionOf } from '../../api/auth/credential-cache';
import { createDb } from '../../shared/db/knex';

describe('the listeners connect as the queries do', () => {
  it('keeps the password of the database URL, which knex hides from a spread', async () => {
    // Nothing connects: knex parses the URL when the instance is made.
    const db = createDb({ url: 'postgres://finops:s3cret%2Fpass@db.internal:6543/finops' });
    try {
      // As the listeners use it: spread into a pg Client's settings beside their own.
      expect({ ...connectionOf(db), application_name: 'listener' }).toMatchObject({
        user: 'finops',
        password: 's3cret/pass',
        host: 'db.internal',
        port: '6543',
        database: 'finops',
      });
    } finally {
      await db.destroy();
    }
  });
});
