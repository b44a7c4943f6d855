import { rm } from 'node:fs/promises';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivityDeps } from '../../activities/deps';
import { importActivities } from '../../activities/imports/import';
import { TransactionImport } from '../../shared/db/models';
import { csvMappingSchema } from '../../shared/domain/transaction-imports/schema';
import { PROJECT_ROOT } from '../../shared/paths';
import type { ImportValidation } from '../../shared/temporal/import-transactions/contract';
import { GENERATED_CSV_MAPPING, generatedCsv } from '../fixtures/statements';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

const STORAGE_DIR = `.data/test-storage-import-two-steps-${process.pid}`;
const tdb = withTestDatabase({
  tearDown: () => rm(path.resolve(PROJECT_ROOT, STORAGE_DIR), { recursive: true, force: true }),
});

/** An uploaded statement whose import run started before `single-pass-import`: validated, then inserted. */
async function importInTwoSteps(csv: string) {
  const deps = createActivityDeps(testConfig({ STORAGE_DIR }), tdb.db);
  const { team, user } = await createTeamAndOwner(tdb.db);
  const [account] = await tdb
    .db('bank_accounts')
    .insert({ teamId: team.id, name: 'Checking', currency: 'EUR', manual: true })
    .returning<{ id: string }[]>('id');
  const storageKey = `${team.id}/imports/two-steps`;
  await deps.storage.put(storageKey, Buffer.from(csv));
  const imp = await TransactionImport.query(tdb.db).insertAndFetch({
    teamId: team.id,
    bankAccountId: account.id,
    format: 'csv',
    fileName: 'statement.csv',
    fileSize: csv.length,
    storageKey,
    mapping: csvMappingSchema.parse({ ...GENERATED_CSV_MAPPING, delimiter: ',' }),
    status: 'pending',
    createdBy: user.id,
  });
  const input = { importId: imp.id, teamId: team.id };
  const activities = importActivities(deps);
  const env = new MockActivityEnvironment();
  const validated: ImportValidation = await env.run(() => activities.validateImport(input));
  const counts = validated.ok ? await env.run(() => activities.insertImportedRows(input)) : null;
  const created = await tdb.db('transactions').where({ bankAccountId: account.id }).count<{ n: string }[]>({ n: '*' });
  return { validated, counts, created: Number(created[0].n) };
}

describe('ImportTransactions runs started before the single pass', () => {
  it('validate into a staging file, then insert every row once', async () => {
    expect(await importInTwoSteps(generatedCsv(12_000))).toEqual({
      validated: { ok: true, rowsRead: 12_000 },
      counts: { created: 12_000, skipped: 0, matched: 0 },
      created: 12_000,
    });
  });

  it('refuse a file with bad rows whole, naming each line', async () => {
    const csv = generatedCsv(3).replace(/\n$/, '\n2026-02-30,"Bad day",-1.00\n2025-01-05,"",-2.00\n');
    const { validated, counts, created } = await importInTwoSteps(csv);
    expect(validated).toMatchObject({ ok: false, rowsRead: 5, errors: [{ line: 5 }, { line: 6 }] });
    expect([counts, created]).toEqual([null, 0]);
  });
});
