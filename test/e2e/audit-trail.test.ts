import { operations } from '../../api/operations';
import { AUDIT_EXCLUDED_TABLES } from '../../shared/db/migrations/0088_audit_trail';
import { auditCheckpointScheduleId } from '../../shared/temporal/audit-checkpoint/contract';
import { sha256Hex } from '../../shared/domain/crypto/tokens';
import { mergeTransactions } from '../../shared/domain/transactions/merge';
import { insertApiKey, insertDocument } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { trpcAs } from '../support/trpc';
import type { TestResponse } from '../support/api';
import { withTwoTeams } from '../support/two-teams';
import { oauthAccessToken } from '../support/oauth';
import { repeatingPass } from '../../api/outbox/repeating-pass';
import { withinTeam } from '../../shared/db/team-wall';

/**
 * The audit trail as a client and an auditor see it: every mutation of the declarations leaves its
 * entries, naming the operation, the user and the credential (API key or session) and the request;
 * a failed mutation leaves none; the application's role cannot change or delete an entry; an entry
 * edited behind the triggers' back is named by verify; the list and verify are the owners'.
 */
const { ctx, send } = withTwoTeams({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });

let apiKey: string;
let apiKeyId: string;
const acme = () => ctx.acme.team.id;

beforeAll(async () => {
  apiKey = await insertApiKey(ctx.tdb.db, { teamId: acme(), userId: ctx.acme.user.id }, ['apis.all']);
  apiKeyId = (
    await ctx.tdb
      .db('api_keys')
      .where({ keyHash: sha256Hex(apiKey) })
      .first<{ id: string }>('id')
  ).id;
});

interface Entry {
  operation: string;
  actorKind: string;
  actorId: string | null;
  credentialKind: string;
  credentialId: string | null;
  requestId: string | null;
  ip: string | null;
  targetType: string;
  targetId: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The entries a request left, read as the owner of the tables (past the team wall). */
const entriesOf = (requestId: string): Promise<Entry[]> => ctx.tdb.db('audit_events').where({ requestId }).orderBy('seq').select<Entry[]>();

type As = 'key' | 'session';
const tokenOf = (as: As) => (as === 'key' ? apiKey : ctx.acme.sessionToken);

/** State the recipes pass on: ids of what earlier recipes created. */
const made: Record<string, string> = {};
const dataOf = async (res: TestResponse) => ((await res.json()) as { data: Record<string, unknown> }).data;

interface Recipe {
  as: As;
  /** Acting as the other team's owner (who joins Acme along the way) rather than Acme's. */
  byOther?: true;
  call: (token: string) => Promise<TestResponse | { requestId: string }>;
  /** The table at least one of its entries must be about. */
  target: string;
  after?: (res: TestResponse) => Promise<void>;
}

const rest =
  (method: string, path: () => string, body?: () => unknown) =>
  (token: string): Promise<TestResponse> =>
    send(method, path(), token, body?.());
const keep = (name: string) => async (res: TestResponse) => {
  made[name] = (await dataOf(res)).id as string;
};
/** Makes something through an earlier request (its own entries) and keeps its id. */
const make = async (token: string, path: string, body: unknown): Promise<string> => {
  const res = await send('POST', path, token, body);
  if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await dataOf(res)).id as string;
};
const draft = (token: string) =>
  make(token, '/invoices', { currency: 'EUR', customerId: made.customer, lineItems: [{ name: 'Work', price: 50 }] });
const insert = async (table: string, row: Record<string, unknown>): Promise<string> =>
  (await ctx.tdb.db(table).insert(row).returning<{ id: string }[]>('id'))[0].id;
/** A tRPC call with a request id of our own, to find its entries by. */
let trpcSeq = 0;
const viaTrpc =
  (fn: (trpc: ReturnType<typeof trpcAs>) => Promise<unknown>) =>
  async (token: string): Promise<{ requestId: string }> => {
    const requestId = `audit-trpc-${++trpcSeq}`;
    await fn(trpcAs(ctx.api, token, { 'x-request-id': requestId }));
    return { requestId };
  };

/**
 * Mutations called in this order, as an API key or a session alternately, each with what it needs
 * made by those before it. Every mutation of the declarations is here or in SKIPPED.
 */
const RECIPES: [string, Recipe][] = [
  [
    'tags.create',
    {
      as: 'key',
      target: 'tags',
      call: rest(
        'POST',
        () => '/tags',
        () => ({ name: 'Audited' }),
      ),
      after: keep('tag'),
    },
  ],
  [
    'tags.update',
    {
      as: 'session',
      target: 'tags',
      call: rest(
        'PATCH',
        () => `/tags/${made.tag}`,
        () => ({ name: 'Audited twice' }),
      ),
    },
  ],
  [
    'customers.create',
    {
      as: 'key',
      target: 'customers',
      call: rest(
        'POST',
        () => '/customers',
        () => ({ name: 'Northwind', billingEmail: 'ap@northwind.example' }),
      ),
      after: keep('customer'),
    },
  ],
  [
    'customers.update',
    {
      as: 'session',
      target: 'customers',
      call: rest(
        'PATCH',
        () => `/customers/${made.customer}`,
        () => ({ phone: '+49 30 1234567' }),
      ),
    },
  ],
  [
    'categories.create',
    {
      as: 'key',
      target: 'transaction_categories',
      call: rest(
        'POST',
        () => '/categories',
        () => ({ name: 'Audit fees', taxRate: 19 }),
      ),
      after: keep('category'),
    },
  ],
  [
    'categories.update',
    {
      as: 'session',
      target: 'transaction_categories',
      call: rest(
        'PATCH',
        () => `/categories/${made.category}`,
        () => ({ name: 'Audit and review fees' }),
      ),
    },
  ],
  [
    'bankAccounts.create',
    {
      as: 'key',
      target: 'bank_accounts',
      call: rest(
        'POST',
        () => '/bank-accounts',
        () => ({ name: 'Cash box', currency: 'EUR' }),
      ),
      after: keep('account'),
    },
  ],
  [
    'bankAccounts.update',
    {
      as: 'session',
      target: 'bank_accounts',
      call: rest(
        'PATCH',
        () => `/bank-accounts/${made.account}`,
        () => ({ name: 'Petty cash' }),
      ),
    },
  ],
  [
    'transactions.create',
    {
      as: 'key',
      target: 'transactions',
      call: rest(
        'POST',
        () => '/transactions',
        () => ({ date: '2026-04-01', name: 'Stationery', amount: -12.5, currency: 'EUR', bankAccountId: made.account }),
      ),
      after: keep('transaction'),
    },
  ],
  [
    'transactions.update',
    {
      as: 'session',
      target: 'transactions',
      call: rest(
        'PATCH',
        () => `/transactions/${made.transaction}`,
        () => ({ note: 'for the audit' }),
      ),
    },
  ],
  [
    'transactions.bulkUpdate',
    {
      as: 'key',
      target: 'transactions',
      call: rest(
        'PATCH',
        () => '/transactions/bulk',
        () => ({ ids: [made.transaction], set: { note: 'bulk' } }),
      ),
    },
  ],
  [
    'transactions.split',
    {
      as: 'session',
      target: 'transactions',
      call: rest(
        'PUT',
        () => `/transactions/${made.transaction}/splits`,
        () => ({ parts: [{ amount: -10 }, { amount: -2.5, note: 'pens' }] }),
      ),
    },
  ],
  [
    'transactions.unsplit',
    {
      as: 'key',
      target: 'transactions',
      call: rest('DELETE', () => `/transactions/${made.transaction}/splits`),
    },
  ],
  [
    'transactions.bulkDelete',
    {
      as: 'session',
      target: 'transactions',
      call: async (token) => {
        const id = await insert('transactions', {
          teamId: acme(),
          date: '2026-04-02',
          name: 'Doomed',
          amount: -1,
          currency: 'EUR',
          manual: true,
        });
        return send('DELETE', '/transactions/bulk', token, { ids: [id] });
      },
    },
  ],
  [
    'transactions.unmerge',
    {
      as: 'key',
      target: 'transactions',
      call: async (token) => {
        const row = { teamId: acme(), date: '2026-04-03', name: 'Paper shop', amount: -7, currency: 'EUR', manual: true };
        const survivor = await insert('transactions', row);
        const merged = await insert('transactions', { ...row, note: 'by hand' });
        await ctx.tdb.db.transaction((trx) =>
          mergeTransactions(trx, acme(), [{ survivorId: survivor, mergedId: merged, reason: 'duplicate' }]),
        );
        return send('POST', `/transactions/${survivor}/unmerge`, token, {});
      },
    },
  ],
  [
    'invoiceProducts.create',
    {
      as: 'session',
      target: 'invoice_products',
      call: rest(
        'POST',
        () => '/invoice-products',
        () => ({ name: 'Consulting hour', price: 120, unit: 'h' }),
      ),
      after: keep('product'),
    },
  ],
  [
    'invoiceProducts.update',
    {
      as: 'key',
      target: 'invoice_products',
      call: rest(
        'PATCH',
        () => `/invoice-products/${made.product}`,
        () => ({ price: 130 }),
      ),
    },
  ],
  [
    'trackerProjects.create',
    {
      as: 'key',
      target: 'tracker_projects',
      call: rest(
        'POST',
        () => '/tracker-projects',
        () => ({ name: 'Year-end close' }),
      ),
      after: keep('project'),
    },
  ],
  [
    'trackerProjects.update',
    {
      as: 'session',
      target: 'tracker_projects',
      call: rest(
        'PATCH',
        () => `/tracker-projects/${made.project}`,
        () => ({ billable: true }),
      ),
    },
  ],
  [
    'trackerEntries.create',
    {
      as: 'session',
      target: 'tracker_entries',
      call: rest(
        'POST',
        () => '/tracker-entries',
        () => ({ projectId: made.project, start: '2026-04-01T09:00:00Z', stop: '2026-04-01T10:00:00Z' }),
      ),
      after: keep('entry'),
    },
  ],
  [
    'trackerEntries.update',
    {
      as: 'key',
      target: 'tracker_entries',
      call: rest(
        'PATCH',
        () => `/tracker-entries/${made.entry}`,
        () => ({ description: 'Ledger review' }),
      ),
    },
  ],
  [
    'invoices.create',
    {
      as: 'key',
      target: 'invoices',
      call: rest(
        'POST',
        () => '/invoices',
        () => ({ currency: 'EUR', customerId: made.customer, lineItems: [{ name: 'Work', price: 100 }] }),
      ),
      after: keep('invoice'),
    },
  ],
  [
    'invoices.update',
    {
      as: 'session',
      target: 'invoices',
      call: rest(
        'PATCH',
        () => `/invoices/${made.invoice}`,
        () => ({ note: 'Thank you' }),
      ),
    },
  ],
  [
    'invoices.finalize',
    {
      as: 'key',
      target: 'invoices',
      call: rest(
        'POST',
        () => `/invoices/${made.invoice}/finalize`,
        () => ({}),
      ),
    },
  ],
  [
    'invoices.createPublicLink',
    { as: 'session', target: 'invoice_links', call: rest('POST', () => `/invoices/${made.invoice}/public-link`) },
  ],
  [
    'invoices.revokePublicLink',
    { as: 'key', target: 'invoice_links', call: rest('DELETE', () => `/invoices/${made.invoice}/public-link`) },
  ],
  [
    'invoices.recordPayment',
    {
      as: 'session',
      target: 'invoice_payments',
      call: rest(
        'POST',
        () => `/invoices/${made.invoice}/payments`,
        () => ({ amount: 10 }),
      ),
    },
  ],
  [
    'invoices.createCreditNote',
    {
      as: 'key',
      target: 'credit_notes',
      call: rest(
        'POST',
        () => `/invoices/${made.invoice}/credit-notes`,
        () => ({}),
      ),
    },
  ],
  [
    'invoices.markPaid',
    {
      as: 'session',
      target: 'invoices',
      call: async (token) => {
        const id = await draft(token);
        await make(token, `/invoices/${id}/finalize`, {});
        return send('POST', `/invoices/${id}/mark-paid`, token, {});
      },
    },
  ],
  [
    'invoices.send',
    { as: 'key', target: 'invoices', call: async (token) => send('POST', `/invoices/${await draft(token)}/send`, token, {}) },
  ],
  [
    'invoices.cancel',
    { as: 'session', target: 'invoices', call: async (token) => send('POST', `/invoices/${await draft(token)}/cancel`, token, {}) },
  ],
  [
    'invoices.transition',
    {
      as: 'key',
      target: 'invoices',
      call: async (token) => {
        const id = await draft(token);
        return viaTrpc((t) => t.invoices.transition.mutate({ id, action: 'finalize' }))(token);
      },
    },
  ],
  [
    'invoices.schedule',
    {
      as: 'session',
      target: 'invoices',
      call: async (token) => {
        made.scheduled = await draft(token);
        return send('POST', `/invoices/${made.scheduled}/schedule`, token, { sendAt: new Date(Date.now() + 7 * 86_400_000).toISOString() });
      },
    },
  ],
  ['invoices.unschedule', { as: 'key', target: 'invoices', call: rest('DELETE', () => `/invoices/${made.scheduled}/schedule`) }],
  [
    'invoices.delete',
    { as: 'session', target: 'invoices', call: async (token) => send('DELETE', `/invoices/${await draft(token)}`, token) },
  ],
  [
    'invoices.createFromTracker',
    {
      as: 'key',
      target: 'invoices',
      call: async (token) => {
        const projectId = await make(token, '/tracker-projects', {
          name: 'Billable work',
          customerId: made.customer,
          rate: 100,
          currency: 'EUR',
          billable: true,
        });
        await make(token, '/tracker-entries', { projectId, start: '2026-05-04T09:00:00Z', stop: '2026-05-04T11:00:00Z' });
        return send('POST', '/invoices/from-tracker', token, { projectId, from: '2026-05-01', to: '2026-05-31' });
      },
    },
  ],
  [
    'invoicePaymentSuggestions.decline',
    {
      as: 'session',
      target: 'invoice_payment_suggestions',
      call: async (token) => {
        const invoiceId = await draft(token);
        await make(token, `/invoices/${invoiceId}/finalize`, {});
        const transactionId = await insert('transactions', {
          teamId: acme(),
          date: '2026-04-03',
          name: 'Northwind',
          amount: 50,
          currency: 'EUR',
        });
        made.payable = invoiceId;
        const id = await insert('invoice_payment_suggestions', { teamId: acme(), invoiceId, transactionId, reason: 'amount' });
        return send('POST', `/invoice-payment-suggestions/${id}/decline`, token);
      },
    },
  ],
  [
    'invoicePaymentSuggestions.confirm',
    {
      as: 'key',
      target: 'invoice_payments',
      call: async (token) => {
        const transactionId = await insert('transactions', {
          teamId: acme(),
          date: '2026-04-03',
          name: 'Northwind GmbH',
          amount: 50,
          currency: 'EUR',
        });
        const id = await insert('invoice_payment_suggestions', {
          teamId: acme(),
          invoiceId: made.payable,
          transactionId,
          reason: 'customer',
        });
        return send('POST', `/invoice-payment-suggestions/${id}/confirm`, token);
      },
    },
  ],
  [
    'invoiceSeries.create',
    {
      as: 'session',
      target: 'invoice_series',
      call: rest(
        'POST',
        () => '/invoice-series',
        () => ({
          customerId: made.customer,
          name: 'Retainer',
          currency: 'EUR',
          lineItems: [{ name: 'Retainer', price: 500 }],
          frequency: 'monthly',
          startDate: '2027-01-01',
        }),
      ),
      after: keep('series'),
    },
  ],
  [
    'invoiceSeries.update',
    {
      as: 'key',
      target: 'invoice_series',
      call: rest(
        'PATCH',
        () => `/invoice-series/${made.series}`,
        () => ({ name: 'Monthly retainer' }),
      ),
    },
  ],
  ['invoiceSeries.delete', { as: 'session', target: 'invoice_series', call: rest('DELETE', () => `/invoice-series/${made.series}`) }],
  [
    'customers.delete',
    {
      as: 'key',
      target: 'customers',
      call: async (token) => send('DELETE', `/customers/${await make(token, '/customers', { name: 'Short-lived' })}`, token),
    },
  ],
  [
    'documents.upload',
    {
      as: 'session',
      target: 'documents',
      call: async (token) => {
        const form = new FormData();
        form.append('file', new Blob(['Receipt: 12.50 EUR']), 'receipt.txt');
        return ctx.api.fetch('/documents', { method: 'POST', token, body: form });
      },
    },
  ],
  [
    'documents.update',
    {
      as: 'key',
      target: 'documents',
      call: async (token) => {
        made.document = await insertDocument(ctx.tdb.db, acme(), { name: 'contract.txt', content: 'Contract' });
        return send('PATCH', `/documents/${made.document}`, token, { name: 'contract-2026.txt' });
      },
    },
  ],
  ['documents.delete', { as: 'session', target: 'documents', call: rest('DELETE', () => `/documents/${made.document}`) }],
  [
    'inbox.update',
    {
      as: 'key',
      target: 'inbox_items',
      call: async (token) => {
        made.inbox = await insert('inbox_items', { teamId: acme(), source: 'upload', reference: 'audit-1', status: 'pending' });
        return send('PATCH', `/inbox/${made.inbox}`, token, { note: 'taxi' });
      },
    },
  ],
  [
    'inbox.matchTransaction',
    {
      as: 'session',
      target: 'inbox_items',
      call: async (token) => {
        const transactionId = await insert('transactions', {
          teamId: acme(),
          date: '2026-04-04',
          name: 'Taxi',
          amount: -20,
          currency: 'EUR',
        });
        return send('POST', `/inbox/${made.inbox}/match`, token, { transactionId });
      },
    },
  ],
  [
    'inbox.declineMatch',
    {
      as: 'key',
      target: 'match_suggestions',
      call: async (token) => {
        const inboxId = await insert('inbox_items', { teamId: acme(), source: 'upload', reference: 'audit-2', status: 'suggested_match' });
        const transactionId = await insert('transactions', {
          teamId: acme(),
          date: '2026-04-05',
          name: 'Hotel',
          amount: -90,
          currency: 'EUR',
        });
        await insert('match_suggestions', { teamId: acme(), inboxItemId: inboxId, transactionId, matchType: 'suggested', confidence: 0.8 });
        return send('POST', `/inbox/${inboxId}/decline`, token, { transactionId });
      },
    },
  ],
  [
    'inbox.confirmMatch',
    {
      as: 'session',
      target: 'match_suggestions',
      call: async (token) => {
        const inboxId = await insert('inbox_items', { teamId: acme(), source: 'upload', reference: 'audit-3', status: 'suggested_match' });
        const transactionId = await insert('transactions', {
          teamId: acme(),
          date: '2026-04-06',
          name: 'Train',
          amount: -40,
          currency: 'EUR',
        });
        await insert('match_suggestions', { teamId: acme(), inboxItemId: inboxId, transactionId, matchType: 'suggested', confidence: 0.9 });
        return send('POST', `/inbox/${inboxId}/confirm`, token, { transactionId });
      },
    },
  ],
  ['inbox.delete', { as: 'key', target: 'inbox_items', call: rest('DELETE', () => `/inbox/${made.inbox}`) }],
  [
    'insights.generate',
    {
      as: 'session',
      target: 'insights',
      call: rest(
        'POST',
        () => '/insights',
        () => ({}),
      ),
    },
  ],
  [
    'chat.send',
    {
      as: 'key',
      target: 'chat_messages',
      call: rest(
        'POST',
        () => '/chat',
        () => ({ message: 'How much did I spend on taxis?' }),
      ),
    },
  ],
  [
    'chatConversations.delete',
    {
      as: 'session',
      target: 'chat_conversations',
      call: async (token) => {
        const id = await insert('chat_conversations', { teamId: acme(), userId: ctx.acme.user.id, title: 'Old chat' });
        return send('DELETE', `/chat/conversations/${id}`, token);
      },
    },
  ],
  [
    'transactionExports.create',
    {
      as: 'key',
      target: 'exports',
      call: rest(
        'POST',
        () => '/transactions/export',
        () => ({}),
      ),
    },
  ],
  [
    'datev.updateAccountMapping',
    {
      as: 'session',
      target: 'datev_settings',
      call: rest(
        'PUT',
        () => '/datev/account-mapping',
        () => ({ consultantNumber: 1001, clientNumber: 7, categories: [], bankAccounts: [] }),
      ),
    },
  ],
  [
    'accountantLinks.create',
    {
      as: 'key',
      target: 'accountant_links',
      call: async (token) => {
        const documentId = await insert('documents', {
          teamId: acme(),
          name: 'export.zip',
          storageKey: `${acme()}/exports/audited.zip`,
          mimeType: 'application/zip',
          size: 1,
          sha256: '0'.repeat(64),
        });
        const exportId = await insert('exports', { teamId: acme(), filters: {}, formats: ['csv'], status: 'completed', documentId });
        return send('POST', '/accountant-links', token, { exportId, expiresInDays: 3 });
      },
      after: keep('accountantLink'),
    },
  ],
  [
    'accountantLinks.revoke',
    {
      as: 'session',
      target: 'accountant_links',
      call: rest('DELETE', () => `/accountant-links/${made.accountantLink}`),
    },
  ],
  [
    'webhookEndpoints.create',
    {
      as: 'session',
      target: 'webhook_endpoints',
      call: rest(
        'POST',
        () => '/webhook-endpoints',
        () => ({ url: 'http://127.0.0.1:9/hook', eventTypes: ['transaction.created'] }),
      ),
      after: keep('endpoint'),
    },
  ],
  [
    'webhookEndpoints.update',
    {
      as: 'key',
      target: 'webhook_endpoints',
      call: rest(
        'PATCH',
        () => `/webhook-endpoints/${made.endpoint}`,
        () => ({ description: 'ledger' }),
      ),
    },
  ],
  [
    'webhookEndpoints.rotateSecret',
    {
      as: 'session',
      target: 'webhook_endpoints',
      call: rest(
        'POST',
        () => `/webhook-endpoints/${made.endpoint}/rotate-secret`,
        () => ({}),
      ),
    },
  ],
  [
    'webhookEndpoints.delete',
    { as: 'key', target: 'webhook_endpoints', call: rest('DELETE', () => `/webhook-endpoints/${made.endpoint}`) },
  ],
  [
    'bankConnections.delete',
    {
      as: 'session',
      target: 'bank_connections',
      call: async (token) => {
        const id = await insert('bank_connections', {
          teamId: acme(),
          provider: 'bank-a',
          referenceId: 'item-audit',
          status: 'disconnected',
        });
        return send('DELETE', `/bank-connections/${id}`, token);
      },
    },
  ],
  [
    'teams.regenerateInboxId',
    {
      as: 'session',
      target: 'teams',
      call: rest(
        'POST',
        () => `/teams/${acme()}/regenerate-inbox-id`,
        () => ({}),
      ),
    },
  ],
  [
    'teams.invite',
    {
      as: 'session',
      target: 'team_invitations',
      call: rest(
        'POST',
        () => `/teams/${acme()}/invitations`,
        () => ({ email: ctx.other.user.email, role: 'member' }),
      ),
      after: keep('invitation'),
    },
  ],
  [
    'users.acceptInvitation',
    {
      as: 'session',
      byOther: true,
      target: 'team_members',
      call: rest(
        'POST',
        () => `/users/me/invitations/${made.invitation}/accept`,
        () => ({}),
      ),
    },
  ],
  [
    'teams.updateMember',
    {
      as: 'session',
      target: 'team_members',
      call: rest(
        'PATCH',
        () => `/teams/${acme()}/members/${ctx.other.user.id}`,
        () => ({ role: 'owner' }),
      ),
    },
  ],
  [
    'teams.removeMember',
    { as: 'session', target: 'team_members', call: rest('DELETE', () => `/teams/${acme()}/members/${ctx.other.user.id}`) },
  ],
  [
    'teams.revokeInvitation',
    {
      as: 'session',
      target: 'team_invitations',
      call: async (token) => {
        const id = await make(token, `/teams/${acme()}/invitations`, { email: 'someone@example.com' });
        return send('DELETE', `/teams/${acme()}/invitations/${id}`, token);
      },
    },
  ],
  [
    'users.declineInvitation',
    {
      as: 'session',
      byOther: true,
      target: 'team_invitations',
      call: async (token) => {
        const id = await make(ctx.acme.sessionToken, `/teams/${acme()}/invitations`, { email: ctx.other.user.email });
        return send('POST', `/users/me/invitations/${id}/decline`, token, {});
      },
    },
  ],
  [
    'teams.leave',
    {
      as: 'session',
      byOther: true,
      target: 'team_members',
      call: async (token) => {
        const id = await make(ctx.acme.sessionToken, `/teams/${acme()}/invitations`, { email: ctx.other.user.email });
        await make(token, `/users/me/invitations/${id}/accept`, {});
        return viaTrpc((t) => t.teams.leave.mutate({ teamId: acme() }))(token);
      },
    },
  ],
  [
    'notifications.updateSetting',
    {
      as: 'session',
      target: 'notification_settings',
      call: rest(
        'PUT',
        () => '/notifications/settings/transactions_created',
        () => ({ email: false }),
      ),
    },
  ],
  [
    'teams.updateCurrent',
    {
      as: 'key',
      target: 'teams',
      call: rest(
        'PATCH',
        () => '/teams/current',
        () => ({ invoicePaymentDetails: 'IBAN DE89 3704 0044 0532 0130 00' }),
      ),
    },
  ],
  [
    'teams.update',
    {
      as: 'session',
      target: 'teams',
      call: rest(
        'PATCH',
        () => `/teams/${acme()}`,
        () => ({ name: 'Acme Audited' }),
      ),
    },
  ],
  [
    'apiKeys.create',
    {
      as: 'session',
      target: 'api_keys',
      call: rest(
        'POST',
        () => '/api-keys',
        () => ({ name: 'Bookkeeping', scopes: ['transactions.read'] }),
      ),
      after: keep('newKey'),
    },
  ],
  [
    'apiKeys.update',
    {
      as: 'session',
      target: 'api_keys',
      call: rest(
        'PATCH',
        () => `/api-keys/${made.newKey}`,
        () => ({ name: 'Bookkeeping export' }),
      ),
    },
  ],
  [
    'apiKeys.upsert',
    {
      as: 'session',
      target: 'api_keys',
      call: viaTrpc((t) => t.apiKeys.upsert.mutate({ id: made.newKey, name: 'Bookkeeping (tRPC)', scopes: ['transactions.read'] })),
    },
  ],
  ['apiKeys.delete', { as: 'session', target: 'api_keys', call: rest('DELETE', () => `/api-keys/${made.newKey}`) }],
  [
    'oauthApplications.create',
    {
      as: 'session',
      target: 'oauth_applications',
      call: rest(
        'POST',
        () => '/oauth-applications',
        () => ({ name: 'Ledger agent', redirectUris: ['https://agent.example/callback'], scopes: ['transactions.read'] }),
      ),
      after: keep('app'),
    },
  ],
  [
    'oauthApplications.update',
    {
      as: 'session',
      target: 'oauth_applications',
      call: rest(
        'PATCH',
        () => `/oauth-applications/${made.app}`,
        () => ({ name: 'Ledger agent v2' }),
      ),
    },
  ],
  [
    'oauthApplications.regenerateSecret',
    {
      as: 'session',
      target: 'oauth_applications',
      call: rest(
        'POST',
        () => `/oauth-applications/${made.app}/regenerate-secret`,
        () => ({}),
      ),
    },
  ],
  [
    'oauthApplications.revokeAccess',
    {
      as: 'session',
      target: 'oauth_consents',
      call: async (token) => {
        await insert('oauth_consents', {
          teamId: acme(),
          applicationId: made.app,
          userId: ctx.acme.user.id,
          scopes: ['transactions.read'],
        });
        return send('DELETE', `/oauth-applications/authorized/${made.app}`, token);
      },
    },
  ],
  [
    'oauthApplications.delete',
    { as: 'session', target: 'oauth_applications', call: rest('DELETE', () => `/oauth-applications/${made.app}`) },
  ],
  ['trackerEntries.delete', { as: 'session', target: 'tracker_entries', call: rest('DELETE', () => `/tracker-entries/${made.entry}`) }],
  ['trackerProjects.delete', { as: 'key', target: 'tracker_projects', call: rest('DELETE', () => `/tracker-projects/${made.project}`) }],
  [
    'invoiceProducts.delete',
    { as: 'session', target: 'invoice_products', call: rest('DELETE', () => `/invoice-products/${made.product}`) },
  ],
  ['transactions.delete', { as: 'key', target: 'transactions', call: rest('DELETE', () => `/transactions/${made.transaction}`) }],
  ['bankAccounts.delete', { as: 'session', target: 'bank_accounts', call: rest('DELETE', () => `/bank-accounts/${made.account}`) }],
  ['categories.delete', { as: 'key', target: 'transaction_categories', call: rest('DELETE', () => `/categories/${made.category}`) }],
  [
    'transactionRules.create',
    {
      as: 'key',
      target: 'transaction_rules',
      call: rest(
        'POST',
        () => '/transaction-rules',
        () => ({
          name: 'Stationery',
          conditions: { any: [{ all: [{ field: 'name', operator: 'contains', value: 'stationery' }] }] },
          actions: { note: 'Office' },
        }),
      ),
      after: keep('rule'),
    },
  ],
  [
    'transactionRules.update',
    {
      as: 'session',
      target: 'transaction_rules',
      call: rest(
        'PATCH',
        () => `/transaction-rules/${made.rule}`,
        () => ({ name: 'Stationery and paper' }),
      ),
    },
  ],
  [
    'transactionRules.delete',
    { as: 'session', target: 'transaction_rules', call: rest('DELETE', () => `/transaction-rules/${made.rule}`) },
  ],
  [
    'agentActions.updatePolicies',
    {
      as: 'session',
      target: 'teams',
      call: rest(
        'PUT',
        () => '/agent-actions/policies',
        () => ({ policies: [{ operation: 'transactions.bulkUpdate', maxCount: 5 }] }),
      ),
    },
  ],
  ['tags.delete', { as: 'key', target: 'tags', call: rest('DELETE', () => `/tags/${made.tag}`) }],
  // Last: a new team becomes the session's current one.
  [
    'teams.create',
    {
      as: 'session',
      target: 'teams',
      call: rest(
        'POST',
        () => '/teams',
        () => ({ name: 'Spin-off' }),
      ),
      after: async (res) => {
        await keep('newTeam')(res);
        // The new team's trail gets its nightly checkpoint; removed here, as no worker of this file would run it.
        const schedule = (await ctx.api.deps.temporal.client()).schedule.getHandle(auditCheckpointScheduleId(made.newTeam));
        expect((await schedule.describe()).action).toMatchObject({ workflowType: 'auditCheckpoint', args: [{ teamId: made.newTeam }] });
        await schedule.delete();
      },
    },
  ],
  ['teams.delete', { as: 'session', target: 'teams', call: rest('DELETE', () => `/teams/${made.newTeam}`) }],
];

/** Mutations this file does not call, and why. */
const SKIPPED: Record<string, string> = {
  'bankConnections.create':
    'exchanges a token with the bank provider (bank-link.test.ts has its fake); the connection row it writes is audited like bankConnections.delete’s',
  'bankConnections.exchange': 'the same call as bankConnections.create under its former path',
  'bankConnections.link': 'asks the bank provider for a link session and writes nothing',
  'bankConnections.reconnect': 'asks the bank provider for a link session and writes nothing',
  'bankConnections.completeReconnect': 'exchanges a token with the bank provider (bank-link.test.ts has its fake)',
  'bankConnections.sync':
    'signals the SyncConnection workflow and writes nothing itself; the sync’s writes are the workflow’s (audit-trail-actors.test.ts)',
  'documents.uploadUrl': 'signs an upload URL and writes nothing',
  'notifications.updateStatus': 'writes only the user’s read mark (notification_states), which is not audited',
  'notifications.updateManyStatus': 'writes only the user’s read marks (notification_states), which are not audited',
  'transactionImports.create': 'its rows are written by the ImportTransactions workflow: audit-trail-actors.test.ts runs it with a worker',
  'transactionImports.preview': 'reads the file and answers; writes nothing',
  'users.update': 'writes the user’s own profile (users), which is no team’s data',
  'users.switchTeam': 'writes the user’s current team (users), which is no team’s data',
  'users.delete': 'ends the account this file acts as; its memberships’ deletion is audited like teams.removeMember’s',
  'webhookEndpoints.sendTest': 'queues a delivery (webhook_deliveries, bookkeeping that is not audited)',
  'webhookEndpoints.replayDelivery': 'queues a delivery (webhook_deliveries, bookkeeping that is not audited)',
  'transactionRules.apply':
    'writes only its run’s progress row (transaction_rule_runs, bookkeeping); the changes the run makes are the transactions’ entries, by its workflow',
  'agentActions.approve':
    'needs an agent’s proposal waiting in its AgentAction run: agent-actions.test.ts approves one and finds the change audited as the agent’s',
  'agentActions.decline':
    'needs an agent’s proposal waiting in its AgentAction run (agent-actions.test.ts); the decision is agent_actions’ update',
};

describe('every mutation leaves its entries', () => {
  it('knows every mutation of the declarations: called below, or skipped with a reason', () => {
    const known = new Set([...RECIPES.map(([name]) => name), ...Object.keys(SKIPPED)]);
    const unknown = operations.filter((op) => op.kind === 'mutation' && !known.has(op.name)).map((op) => op.name);
    expect(unknown).toEqual([]);
  });

  it.each(RECIPES)('%s: the operation, the user, the credential and the request', async (name, recipe) => {
    const res = await recipe.call(recipe.byOther ? ctx.other.sessionToken : tokenOf(recipe.as));
    let requestId: string;
    if ('requestId' in res) requestId = res.requestId;
    else {
      if (res.status >= 300) throw new Error(`${name} answered ${res.status}: ${await res.text()}`);
      await recipe.after?.(res);
      requestId = res.headers.get('x-request-id')!;
    }
    const entries = await entriesOf(requestId);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e).toMatchObject({
        operation: name,
        actorKind: 'user',
        actorId: recipe.byOther ? ctx.other.user.id : ctx.acme.user.id,
        credentialKind: recipe.as === 'key' ? 'api_key' : 'session',
        credentialId: recipe.as === 'key' ? apiKeyId : null,
        ip: expect.stringMatching(/127\.0\.0\.1/),
      });
    }
    expect(entries.map((e) => e.targetType)).toContain(recipe.target);
  });
});

describe('an entry', () => {
  it('holds the fields before and after, and never a secret', async () => {
    const created = await send('POST', '/api-keys', ctx.acme.sessionToken, { name: 'Secretive', scopes: ['tags.read'] });
    expect(created.status).toBe(201);
    const [entry] = (await entriesOf(created.headers.get('x-request-id')!)).filter((e) => e.targetType === 'api_keys');
    expect(entry.action).toBe('insert');
    expect(entry.after).toMatchObject({ name: 'Secretive', scopes: ['tags.read'] });
    expect(entry.after).not.toHaveProperty('key_hash');
    const id = (await dataOf(created)).id as string;
    const renamed = await send('PATCH', `/api-keys/${id}`, ctx.acme.sessionToken, { name: 'Plain' });
    const [update] = await entriesOf(renamed.headers.get('x-request-id')!);
    expect(update).toMatchObject({ action: 'update', before: { name: 'Secretive' }, after: { name: 'Plain' } });
  });

  it('is not written for a mutation that fails, nor is its change', async () => {
    const before = await ctx.tdb.db('audit_events').where({ teamId: acme() }).count<{ n: number }[]>('* as n');
    // A duplicate name fails after the service began writing (a 409 from the unique index).
    await send('POST', '/tags', apiKey, { name: 'Unique' });
    const dup = await send('POST', '/tags', apiKey, { name: 'Unique' });
    expect(dup.status).toBe(409);
    expect(await entriesOf(dup.headers.get('x-request-id')!)).toEqual([]);
    const bad = await send('POST', '/tags', apiKey, { name: '' });
    expect(bad.status).toBe(400);
    expect(await entriesOf(bad.headers.get('x-request-id')!)).toEqual([]);
    const after = await ctx.tdb.db('audit_events').where({ teamId: acme() }).count<{ n: number }[]>('* as n');
    expect(after[0].n - before[0].n).toBe(1);
  });
});

describe('writes no declaration makes', () => {
  const entries = (where: Record<string, string>) =>
    ctx.tdb
      .db('audit_events')
      .where({ teamId: acme(), ...where })
      .orderBy('seq')
      .select<Entry[]>();

  // Tokens (oauth_tokens) and codes are not audited (0088's exclusions); the grant a consent makes is.
  it('name the user for a consent', async () => {
    await oauthAccessToken(ctx.api, ctx.acme.sessionToken, ctx.acme.sessionToken, ['transactions.read']);
    const consent = await entries({ operation: 'oauth.authorize' });
    expect(consent.length).toBeGreaterThan(0);
    for (const e of consent) expect(e).toMatchObject({ actorKind: 'user', actorId: ctx.acme.user.id, credentialKind: 'session' });
    expect(consent.every((e) => e.requestId && e.ip)).toBe(true);
  });

  it('name the public link a customer opened an invoice through', async () => {
    const customerId = await make(apiKey, '/customers', { name: 'Viewer GmbH', billingEmail: 'ap@viewer.example' });
    const invoiceId = await make(apiKey, '/invoices', { currency: 'EUR', customerId, lineItems: [{ name: 'Work', price: 100 }] });
    expect((await send('POST', `/invoices/${invoiceId}/finalize`, apiKey, {})).status).toBe(200);
    const linked = await send('POST', `/invoices/${invoiceId}/public-link`, apiKey);
    const { url } = (await dataOf(linked)) as { url: string };
    const page = await ctx.api.fetch(new URL(url, 'http://localhost').pathname);
    expect(page.status).toBe(200);
    const link = await ctx.tdb.db('invoice_links').where({ invoiceId }).first<{ id: string }>('id');
    const viewed = await entries({ operation: 'invoices.viewPublic' });
    // The view itself (invoice_views) is not audited; the invoice's viewedAt it sets is.
    expect(viewed.map((e) => e.targetType)).toEqual(['invoices']);
    for (const e of viewed)
      expect(e).toMatchObject({ actorKind: 'link', actorId: link.id, credentialKind: 'link', requestId: page.headers.get('x-request-id') });
  });

  it('name the outbox pass that made them', async () => {
    const pass = repeatingPass(
      async () => {
        await withinTeam(acme(), () => ctx.api.deps.db('tags').insert({ teamId: acme(), name: 'Swept in' }));
        return 1;
      },
      { intervalMs: 3_600_000, log: ctx.api.deps.logger, what: 'test pass', audit: 'outbox:test-pass' },
    );
    await pass.runOnce();
    await pass.stop();
    const [entry] = await entries({ operation: 'outbox:test-pass' });
    expect(entry).toMatchObject({ actorKind: 'system', credentialKind: 'system', targetType: 'tags', action: 'insert' });
  });
});

describe('the audited tables', () => {
  it('are every table holding a team’s rows, but those excluded with a reason', async () => {
    // Audited: updates and deletes by the row trigger, inserts by the statement trigger (0110).
    const { rows } = await ctx.tdb.db.raw<{ rows: { table: string; audited: boolean }[] }>(`
      select c.table_name as table,
             exists (select 1 from pg_trigger t where t.tgrelid = c.table_name::regclass and t.tgname = 'audit_row'
                        and t.tgtype & (8 | 16) = (8 | 16) and t.tgtype & 4 = 0)
             and exists (select 1 from pg_trigger t where t.tgrelid = c.table_name::regclass and t.tgname = 'audit_rows_inserted' and t.tgtype & 4 = 4) as audited
        from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
       where c.table_schema = current_schema() and c.column_name = 'team_id' and t.table_type = 'BASE TABLE'`);
    const unaudited = rows.filter((r) => !r.audited).map((r) => r.table);
    expect(unaudited.sort()).toEqual(Object.keys(AUDIT_EXCLUDED_TABLES).sort());
  });
});

describe('the application role', () => {
  const asApp = async <T>(fn: (trx: import('knex').Knex.Transaction) => Promise<T>) =>
    ctx.tdb.db.transaction(async (trx) => {
      await trx.raw(`select set_config('role', 'finops_app', true), set_config('app.team_id', ?, true)`, [acme()]);
      return fn(trx);
    });

  it('cannot update or delete an entry, nor truncate the trail', async () => {
    expect(await asApp((trx) => trx('audit_events').count<{ n: number }[]>('* as n'))).toEqual([{ n: expect.any(Number) }]);
    await expect(asApp((trx) => trx('audit_events').where({ teamId: acme() }).update({ operation: 'nothing happened' }))).rejects.toThrow(
      /permission denied for table audit_events/,
    );
    await expect(asApp((trx) => trx('audit_events').where({ teamId: acme() }).delete())).rejects.toThrow(/permission denied/);
    await expect(asApp((trx) => trx.raw('truncate audit_events'))).rejects.toThrow(/permission denied/);
    await expect(asApp((trx) => trx('audit_checkpoints').where({ teamId: acme() }).delete())).rejects.toThrow(/permission denied/);
  });

  it('nor can the owner, past the grants: the trigger refuses all but the one sealing', async () => {
    await expect(ctx.tdb.db('audit_events').where({ teamId: acme() }).update({ operation: 'nothing happened' })).rejects.toThrow(
      /cannot be changed or deleted/,
    );
    await expect(ctx.tdb.db('audit_events').where({ teamId: acme() }).delete()).rejects.toThrow(/cannot be changed or deleted/);
  });
});

describe('GET /audit-events and /audit-events/verify', () => {
  it('lists the team’s entries newest first, filtered, in keyset pages, and only the team’s', async () => {
    const created = await send('POST', '/tags', apiKey, { name: 'Listed' });
    const tagId = (await dataOf(created)).id as string;
    const listed = await send('GET', `/audit-events?targetType=tags&targetId=${tagId}`, ctx.acme.sessionToken);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { data: Record<string, unknown>[] };
    expect(body.data).toEqual([
      expect.objectContaining({
        operation: 'tags.create',
        actor: { kind: 'user', id: ctx.acme.user.id },
        credential: { kind: 'api_key', id: apiKeyId },
        target: { type: 'tags', id: tagId },
        action: 'insert',
        requestId: created.headers.get('x-request-id'),
      }),
    ]);

    const page1 = (await (await send('GET', '/audit-events?pageSize=2&operation=tags.create', ctx.acme.sessionToken)).json()) as {
      data: { id: string; occurredAt: string }[];
      meta: { cursor: string; hasNextPage: boolean };
    };
    expect(page1.data).toHaveLength(2);
    expect(page1.meta.hasNextPage).toBe(true);
    const page2 = (await (
      await send('GET', `/audit-events?pageSize=2&operation=tags.create&cursor=${page1.meta.cursor}`, ctx.acme.sessionToken)
    ).json()) as {
      data: { id: string; occurredAt: string }[];
    };
    expect(page2.data.length).toBeGreaterThan(0);
    expect(page2.data.map((e) => e.id)).not.toContain(page1.data[0].id);
    expect(page2.data[0].occurredAt <= page1.data[1].occurredAt).toBe(true);

    const bySession = (await (await send('GET', '/audit-events?credentialKind=session&pageSize=500', ctx.acme.sessionToken)).json()) as {
      data: { credential: { kind: string } }[];
    };
    expect(bySession.data.length).toBeGreaterThan(0);
    expect(bySession.data.every((e) => e.credential.kind === 'session')).toBe(true);

    const others = (await (await send('GET', `/audit-events?targetId=${tagId}`, ctx.other.sessionToken)).json()) as { data: unknown[] };
    expect(others.data).toEqual([]);

    expect((await send('GET', '/audit-events?cursor=nonsense', ctx.acme.sessionToken)).status).toBe(400);
    expect((await send('GET', '/audit-events?from=yesterday', ctx.acme.sessionToken)).status).toBe(400);
    const trpc = await trpcAs(ctx.api, ctx.acme.sessionToken).auditEvents.get.query({ targetId: tagId });
    expect(trpc.data).toHaveLength(1);
  });

  it('needs audit.read, and an owner', async () => {
    const reader = await insertApiKey(ctx.tdb.db, { teamId: acme(), userId: ctx.acme.user.id }, ['transactions.read']);
    expect((await send('GET', '/audit-events', reader)).status).toBe(403);
    const auditor = await insertApiKey(ctx.tdb.db, { teamId: acme(), userId: ctx.acme.user.id }, ['audit.read']);
    expect((await send('GET', '/audit-events', auditor)).status).toBe(200);
    await ctx.tdb.db('team_members').insert({ teamId: acme(), userId: ctx.other.user.id, role: 'member' });
    const member = await insertApiKey(ctx.tdb.db, { teamId: acme(), userId: ctx.other.user.id }, ['apis.all']);
    expect((await send('GET', '/audit-events', member)).status).toBe(403);
    expect((await send('GET', '/audit-events/verify', member)).status).toBe(403);
  });

  it('verify re-walks the chain, and names the entry edited behind the triggers’ back', async () => {
    const verify = async () => {
      const res = await send('GET', '/audit-events/verify', ctx.acme.sessionToken);
      expect(res.status).toBe(200);
      return (await dataOf(res)) as {
        ok: boolean;
        entries: number;
        unsealed: number;
        brokenAt: null | { position: number; id: string; reason: string };
      };
    };
    // Entries of transactions that ended are sealed on the next read; another open transaction anywhere can hold that back a moment.
    await eventually(async () => (await verify()).unsealed === 0, 10_000, 'every entry sealed');
    const good = await verify();
    expect(good).toMatchObject({ ok: true, brokenAt: null });
    expect(await trpcAs(ctx.api, ctx.acme.sessionToken).auditEvents.verify.query()).toMatchObject({ ok: true, entries: good.entries });
    expect(good.entries).toBeGreaterThan(40);

    const victim = await ctx.tdb.db('audit_events').where({ teamId: acme(), chainPos: 5 }).first<{ id: string }>('id');
    // The owner, with the triggers off (only a superuser or the table's owner can do this): the grants and triggers are not the last word, the chain is.
    await ctx.tdb.db.transaction(async (trx) => {
      await trx.raw(`set local session_replication_role = replica`);
      await trx('audit_events')
        .where({ id: victim.id })
        .update({ after: JSON.stringify({ name: 'something else' }) });
    });
    const broken = await verify();
    expect(broken).toMatchObject({ ok: false, brokenAt: { position: 5, id: victim.id, reason: 'hash' } });
  });
});
