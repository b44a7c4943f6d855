import { migrateLatest } from '../../shared/db/knex';
import { migrationSource } from '../../shared/db/migrations';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

const tdb = withTestDatabase();

describe('migrations', () => {
  it('roll back and forward again', async () => {
    const names = await migrationSource.getMigrations([]);
    await tdb.db.migrate.down({ migrationSource });
    await tdb.db.migrate.down({ migrationSource });
    expect(await migrateLatest(tdb.db)).toEqual(names.slice(-2));
  });

  it('0004 merges documents stored twice before it (items and attachments point at the survivor) and attachments made twice', async () => {
    // 0004 alone rolled back (later migrations stay): duplicates are possible again.
    await tdb.db.migrate.down({ migrationSource, name: '0004_unique_documents' });
    const { team } = await createTeamAndOwner(tdb.db, 'Dupes');
    const doc = (n: number) => ({
      teamId: team.id,
      name: `r${n}.pdf`,
      storageKey: `${team.id}/same.pdf`,
      mimeType: 'application/pdf',
      size: 10,
      sha256: 'a'.repeat(64),
      createdAt: new Date(Date.UTC(2026, 0, n)),
    });
    const [first, second] = await tdb
      .db('documents')
      .insert([doc(1), doc(2)])
      .returning('id');
    const [item] = await tdb
      .db('inbox_items')
      .insert({ teamId: team.id, documentId: second.id, source: 'email', reference: 'dup-1' })
      .returning('id');
    const [tx] = await tdb
      .db('transactions')
      .insert({ teamId: team.id, date: '2026-01-02', name: 'X', amount: -1, currency: 'EUR' })
      .returning('id');
    const attachment = (documentId: string) => ({
      teamId: team.id,
      transactionId: tx.id,
      documentId,
      name: 'r.pdf',
      mimeType: 'application/pdf',
      size: 10,
      storageKey: `${team.id}/same.pdf`,
    });
    await tdb.db('transaction_attachments').insert([attachment(second.id), attachment(first.id)]); // the receipt confirmed twice

    await migrateLatest(tdb.db);
    expect((await tdb.db('inbox_items').where({ id: item.id }).first()).documentId).toBe(first.id);
    expect(await tdb.db('transaction_attachments').where({ transactionId: tx.id })).toEqual([
      expect.objectContaining({ documentId: first.id }),
    ]);
    expect((await tdb.db('documents').where({ id: second.id }).first()).deletedAt).not.toBeNull();
    await expect(tdb.db('documents').insert(doc(3))).rejects.toMatchObject({ code: '23505' });
  });
});
