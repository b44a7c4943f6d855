import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import Stripe from 'stripe';
import { importTransactionsId, type ImportTransactionsWorkflow } from '../../shared/temporal/import-transactions/contract';
import { GENERATED_CSV_MAPPING } from '../fixtures/statements';
import { withStack } from '../support/stack';
import type { UntypedJson } from '../support/untyped-json';

/**
 * Writes that no user's request makes: a workflow's activity, a provider's webhook and the operator's
 * CLI each leave entries naming themselves as the actor (the trail's other doors: REST and tRPC in
 * audit-trail.test.ts).
 */
const PAYMENTS_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const stack = withStack('audit-actors', () => ({ PAYMENTS_WEBHOOK_SECRET: PAYMENTS_SECRET }));
const stripe = new Stripe('sk_test_unused');

interface Entry {
  operation: string;
  actorKind: string;
  actorId: string | null;
  credentialKind: string;
  credentialId: string | null;
  requestId: string | null;
  targetType: string;
  targetId: string | null;
  action: string;
}
const entries = (where: Partial<Entry>) => stack.tdb.db('audit_events').where(where).orderBy('seq').select<Entry[]>();

const json = async (method: string, p: string, body?: unknown) => {
  const res = await stack.api.fetch(p, {
    method,
    token: stack.acme.sessionToken,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, requestId: res.headers.get('x-request-id'), body: await res.json() };
};

describe('a workflow’s writes', () => {
  it('name the workflow and its run, whatever domain function wrote them', async () => {
    const account = await json('POST', '/bank-accounts', { name: 'Checking', currency: 'EUR' });
    const form = new FormData();
    form.append('bankAccountId', account.body.data.id);
    form.append('mapping', JSON.stringify(GENERATED_CSV_MAPPING));
    form.append('file', new Blob(['Date,Description,Amount\n2026-11-03,Rent,-950.00\n2026-11-04,Salary,2500.00\n']), 'statement.csv');
    const res = await stack.api.fetch('/transactions/import', { method: 'POST', token: stack.acme.sessionToken, body: form });
    expect(res.status).toBe(202);
    const imp = (await res.json()).data as { id: string };
    const handle = stack.worker.client.workflow.getHandle<ImportTransactionsWorkflow>(importTransactionsId(imp.id));
    await handle.result();
    const { runId } = await handle.describe();

    // The import row is the user's request; the transactions are the workflow's.
    expect(await entries({ targetType: 'imports', targetId: imp.id, action: 'insert' })).toEqual([
      expect.objectContaining({
        operation: 'transactionImports.create',
        actorKind: 'user',
        actorId: stack.acme.user.id,
        credentialKind: 'session',
      }),
    ]);
    const rows = await entries({ targetType: 'transactions', action: 'insert', actorKind: 'workflow' });
    expect(rows).toHaveLength(2);
    for (const e of rows) {
      expect(e).toMatchObject({
        operation: 'workflow:importTransactions/importRows',
        actorId: importTransactionsId(imp.id),
        credentialKind: 'workflow',
        credentialId: runId,
        requestId: null,
      });
    }
  });
});

describe('a provider’s webhook', () => {
  it('names the provider and the event it delivered', async () => {
    const draft = await json('POST', '/invoices', { currency: 'EUR', lineItems: [{ name: 'Work', price: 100 }] });
    const invoiceId = draft.body.data.id as string;
    await json('POST', `/invoices/${invoiceId}/finalize`, {});
    const eventId = `evt_${randomBytes(8).toString('hex')}`;
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'pi_audit',
          object: 'payment_intent',
          amount: 10000,
          currency: 'eur',
          metadata: { invoice_id: invoiceId, team_id: stack.acme.team.id },
        },
      },
    });
    const res = await stack.api.fetch('/webhook/payments', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'payments-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: PAYMENTS_SECRET }),
      },
      body: payload,
    });
    expect(res.status).toBe(200);
    const paid = await entries({ targetType: 'invoices', targetId: invoiceId, operation: 'webhook:payments' });
    expect(paid.length).toBeGreaterThan(0);
    expect(paid[0]).toMatchObject({
      actorKind: 'provider',
      actorId: 'payments',
      credentialKind: 'webhook',
      credentialId: eventId,
      requestId: res.headers.get('x-request-id'),
    });
  });
});

describe('the admin CLI', () => {
  const run = promisify(execFile);
  const ROOT = path.resolve(__dirname, '..', '..');
  const admin = async (...args: string[]): Promise<{ code: number; json: UntypedJson }> => {
    try {
      const { stdout } = await run(
        process.execPath,
        [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'admin.ts'), ...args],
        {
          env: { ...process.env, DATABASE_URL: stack.tdb.url, LOG_LEVEL: 'silent' },
        },
      );
      return { code: 0, json: JSON.parse(stdout) };
    } catch (err) {
      const e = err as { code: number; stdout: string };
      return { code: e.code, json: e.stdout ? JSON.parse(e.stdout) : null };
    }
  };

  it('writes as the operator, and audit-verify re-walks the chain', async () => {
    const created = await admin(
      'create-user',
      '--email',
      `clerk-${randomBytes(3).toString('hex')}@example.com`,
      '--team-id',
      stack.acme.team.id,
    );
    expect(created.code).toBe(0);
    const joined = await entries({ targetType: 'team_members', operation: 'admin:create-user' });
    expect(joined).toEqual([expect.objectContaining({ actorKind: 'admin', credentialKind: 'admin', action: 'insert' })]);

    const verified = await admin('audit-verify', '--team', stack.acme.team.id);
    expect(verified).toMatchObject({ code: 0, json: { ok: true, brokenAt: null } });
    expect((verified.json as { entries: number }).entries).toBeGreaterThan(3);
    expect((await admin('audit-verify', '--team', 'nope')).code).toBe(2);
  });
});
