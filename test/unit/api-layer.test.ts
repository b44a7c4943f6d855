import path from 'node:path';
import { linesMatching, ROOT, tsFiles } from '../support/source-files';

/**
 * SQL in api/: knex on a table name (`db('invoices')`, `trx('…')`, `knex(…)`), raw SQL (`.raw(`), a
 * transaction, or an Objection model's query (`TeamMember.query(db)`). Adapters validate, call one
 * service in shared/domain and build the envelope; the service owns the query.
 */
const SQL_IN_ADAPTER = /\b(?:knex|db|trx)\(\s*['"`]|\bknex\(|\.raw\(|\.transaction\(|\b[A-Z]\w*\.query\(/;

describe('api/ holds no SQL', () => {
  it('tells SQL from what adapters do', () => {
    const flagged = [
      "await deps.db('invoices').where({ teamId, id });",
      "await trx('webhook_events').insert(row);",
      'await db.raw(`select 1`);',
      'await deps.db.transaction(async (trx) => {',
      'const member = await TeamMember.query(opts.db).findOne({ teamId, userId });',
    ];
    const passed = [
      "const token = ctx.query['upload_token'];",
      'const member = await isTeamMember(opts.db, teamId, userId);',
      "const ok = createHmac('sha256', secret).update(req.raw).digest('hex');",
      'return trpc.invoicePaymentSuggestions.get.query({ status });',
    ];
    expect(flagged.filter((line) => !SQL_IN_ADAPTER.test(line))).toEqual([]);
    expect(passed.filter((line) => SQL_IN_ADAPTER.test(line))).toEqual([]);
  });

  it('finds none in any file under api/', () => {
    const offenders = linesMatching(tsFiles(path.join(ROOT, 'api')), SQL_IN_ADAPTER);
    expect(offenders).toEqual([]);
  });
});
