import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { z } from 'zod';
import type { Mounted } from '../../api/rest/door';
import { encrypt, keyringOf } from '../../shared/domain/crypto/encryption';
import { notify } from '../../shared/domain/notifications/service';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { startBankBFake, type BankBFake } from '../fakes/bank-b';
import { plausibleFor } from '../support/fuzz';
import { insertApiKey } from '../support/fixtures';
import { trpcAs } from '../support/trpc';
import { restDoors, trpcProcedures } from '../support/doors';
import { withTwoTeams } from '../support/two-teams';

/**
 * Tenancy, proven from outside: team A owns one of every resource, each named with a marker; team B,
 * with each kind of credential, calls every REST route and every tRPC procedure with A's ids in every
 * place an id goes (path, filters, body). Nothing of A's may come back, and none of A's rows may
 * change. The routers are enumerated: a route or an id field this test does not know how to aim at
 * A fails it, so a new resource cannot arrive without its probe.
 */
// The banks answer (and refuse B's sampled tokens) instead of being unreachable: a link or exchange is then B's 4xx, not a 502.
let bankA: BankAFake;
let bankB: BankBFake;
beforeAll(async () => {
  bankA = await startBankAFake();
  bankB = await startBankBFake();
});
afterAll(async () => {
  await bankA?.close();
  await bankB?.close();
});
const { ctx, send } = withTwoTeams({
  env: () => ({ RATE_LIMIT_PER_MINUTE: '1000000', BANK_A_API_URL: bankA.url, BANK_B_API_URL: bankB.url }),
});
const MARKER = 'ACME-PRIVATE';

/** A's ids by resource, and which resource each path segment, tRPC router and id field names. */
const ids: Record<string, string> = {};
const RESOURCE_BY_SEGMENT: Record<string, string> = {
  transactions: 'transaction',
  tags: 'tag',
  categories: 'category',
  customers: 'customer',
  invoices: 'invoice',
  'tracker-projects': 'project',
  'tracker-entries': 'entry',
  'bank-connections': 'connection',
  'bank-accounts': 'account',
  inbox: 'inboxItem',
  teams: 'team',
  users: 'invitation',
  chat: 'conversation',
  notifications: 'notification',
  documents: 'document',
  insights: 'insight',
  'invoice-series': 'invoiceSeries',
  'invoice-products': 'invoiceProduct',
  'invoice-payment-suggestions': 'paymentSuggestion',
  // Two segments: a resource nested under another's path.
  'transactions/exports': 'export',
  'webhook-endpoints': 'webhookEndpoint',
  'agent-actions': 'agentAction',
  'audit-events': 'none',
  'api-keys': 'apiKey',
  'oauth-applications': 'oauthApplication',
  'transaction-rules': 'transactionRule',
  'recurring-payments': 'recurringPayment',
  'accountant-links': 'accountantLink',
  datev: 'none',
};
const RESOURCE_BY_ROUTER: Record<string, string> = {
  transactions: 'transaction',
  tags: 'tag',
  categories: 'category',
  customers: 'customer',
  invoices: 'invoice',
  trackerProjects: 'project',
  trackerEntries: 'entry',
  bankConnections: 'connection',
  bankAccounts: 'account',
  inbox: 'inboxItem',
  apiKeys: 'apiKey',
  oauthApplications: 'oauthApplication',
  reports: 'none',
  team: 'none',
  teams: 'team',
  user: 'none',
  users: 'none',
  chat: 'conversation',
  chatConversations: 'conversation',
  currencies: 'none',
  invoicePaymentSuggestions: 'paymentSuggestion',
  transactionExports: 'export',
  notifications: 'notification',
  search: 'none',
  documents: 'document',
  insights: 'insight',
  invoiceSeries: 'invoiceSeries',
  invoiceProducts: 'invoiceProduct',
  transactionImports: 'import',
  webhookEndpoints: 'webhookEndpoint',
  agentActions: 'agentAction',
  events: 'none',
  transactionRules: 'transactionRule',
  recurringPayments: 'recurringPayment',
  auditEvents: 'none',
  accountantLinks: 'accountantLink',
  datev: 'none',
};
/** Procedures whose `id` is not their router's resource. */
const RESOURCE_BY_PROCEDURE: Record<string, string> = { 'transactions.getExport': 'export', 'invoices.getCreditNoteById': 'creditNote' };
/** Routes under another resource's segment whose `:id` is their own resource's. */
const RESOURCE_BY_PATH: Record<string, string> = {
  '/transactions/imports/:id': 'import',
  '/invoices/credit-notes/:id': 'creditNote',
  '/invoices/credit-notes/:id/pdf': 'creditNote',
  '/invoices/credit-notes/:id/e-invoice': 'creditNote',
};
/** Path parameters that are not ids, and what they name. */
const RESOURCE_BY_PARAM: Record<string, string> = { type: 'notificationType' };
/** Fields that carry an id (or list of ids) anywhere in a query or body, and whose. */
const RESOURCE_BY_FIELD: Record<string, string> = {
  projectId: 'project',
  customerId: 'customer',
  transactionId: 'transaction',
  mergedId: 'transaction',
  bankAccountId: 'account',
  applicationId: 'oauthApplication',
  assignedId: 'user',
  categorySlug: 'categorySlug',
  parentId: 'category',
  enrollmentId: 'enrollment',
  userId: 'user',
  teamId: 'team',
  invitationId: 'invitation',
  conversationId: 'conversation',
  logoDocumentId: 'document',
  tags: 'tag',
  addTags: 'tag',
  removeTags: 'tag',
  accounts: 'account',
  customers: 'customer',
  categories: 'categorySlug',
  deliveryId: 'webhookDelivery',
  invoiceId: 'invoice',
  runId: 'ruleRun',
  exportId: 'export',
  // The audit trail's filters: A's user and one of A's rows, which B's trail never holds.
  actorId: 'user',
  targetId: 'transaction',
};
const ID_FIELD = /^(id|ids|\w+Id|\w+Ids|\w+Tags)$/;

beforeAll(async () => {
  const a = ctx.acme;
  const post = async (path: string, body: unknown) => {
    const res = await send('POST', path, a.sessionToken, body);
    if (res.status >= 300) throw new Error(`seeding ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: string; slug?: string } }).data;
  };
  ids.user = a.user.id;
  ids.team = a.team.id;
  ids.tag = (await post('/tags', { name: `${MARKER} tag` })).id;
  const category = await post('/categories', { name: `${MARKER} category`, slug: 'acme-private' });
  ids.category = category.id;
  ids.categorySlug = 'acme-private';
  const [account] = await ctx.tdb
    .db('bank_accounts')
    .insert({ teamId: a.team.id, name: `${MARKER} account`, currency: 'EUR', balance: 1234.56, manual: true })
    .returning('id');
  ids.account = (account as { id: string }).id;
  const [connection] = await ctx.tdb
    .db('bank_connections')
    .insert({
      teamId: a.team.id,
      provider: 'bank-b',
      referenceId: 'enr_acme_private',
      institutionName: `${MARKER} bank`,
      status: 'connected',
    })
    .returning('id');
  ids.connection = (connection as { id: string }).id;
  ids.enrollment = 'enr_acme_private';
  ids.transaction = (
    await post('/transactions', {
      date: '2026-04-01',
      name: `${MARKER} transaction`,
      amount: -99.5,
      currency: 'EUR',
      bankAccountId: ids.account,
      categorySlug: ids.categorySlug,
      tags: [ids.tag],
    })
  ).id;
  ids.customer = (await post('/customers', { name: `${MARKER} customer`, email: 'private@acme.example' })).id;
  ids.invoice = (
    await post('/invoices', {
      currency: 'EUR',
      customerId: ids.customer,
      note: MARKER,
      lineItems: [{ name: `${MARKER} work`, quantity: 1, price: 500 }],
    })
  ).id;
  // An issued invoice with a credit note (the invoice above stays a draft).
  const issued = await post('/invoices', { currency: 'EUR', customerId: ids.customer, lineItems: [{ name: `${MARKER} sold`, price: 90 }] });
  await post(`/invoices/${issued.id}/finalize`, {});
  ids.creditNote = (await post(`/invoices/${issued.id}/credit-notes`, { reason: MARKER })).id;
  ids.project = (await post('/tracker-projects', { name: `${MARKER} project`, customerId: ids.customer })).id;
  ids.entry = (
    await post('/tracker-entries', {
      projectId: ids.project,
      start: '2026-04-01T09:00:00Z',
      stop: '2026-04-01T10:00:00Z',
      description: MARKER,
    })
  ).id;
  const [inboxItem] = await ctx.tdb
    .db('inbox_items')
    .insert({
      teamId: a.team.id,
      source: 'email',
      reference: 'acme-private-receipt',
      status: 'pending',
      displayName: `${MARKER} receipt`,
      amount: 12,
    })
    .returning('id');
  ids.inboxItem = (inboxItem as { id: string }).id;
  const [invitation] = await ctx.tdb
    .db('team_invitations')
    .insert({
      teamId: a.team.id,
      email: 'someone-else@acme.example',
      role: 'member',
      invitedBy: a.user.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning('id');
  ids.invitation = (invitation as { id: string }).id;
  const [conversation] = await ctx.tdb
    .db('chat_conversations')
    .insert({ teamId: a.team.id, userId: a.user.id, title: `${MARKER} conversation` })
    .returning('id');
  ids.conversation = (conversation as { id: string }).id;
  const [document] = await ctx.tdb
    .db('documents')
    .insert({
      teamId: a.team.id,
      name: `${MARKER} contract.pdf`,
      storageKey: `${a.team.id}/acme-private.pdf`,
      mimeType: 'application/pdf',
      size: 10,
      sha256: 'a'.repeat(64),
      content: MARKER,
      processingStatus: 'completed',
    })
    .returning('id');
  ids.document = (document as { id: string }).id;
  await ctx.tdb.db('document_tags').insert({ teamId: a.team.id, documentId: ids.document, tagId: ids.tag });
  ids.notification = await notify(ctx.tdb.db, {
    teamId: a.team.id,
    type: 'transactions_created',
    metadata: { connectionId: ids.connection, count: 3, manualSync: false },
  });
  const [insight] = await ctx.tdb
    .db('insights')
    .insert({ teamId: a.team.id, periodStart: '2026-11-16', periodEnd: '2026-11-22', currency: 'EUR', summary: { note: MARKER } })
    .returning('id');
  ids.insight = (insight as { id: string }).id;
  const [series] = await ctx.tdb
    .db('invoice_series')
    .insert({
      teamId: a.team.id,
      customerId: ids.customer,
      name: `${MARKER} series`,
      currency: 'EUR',
      lineItems: JSON.stringify([{ name: MARKER, quantity: 1, price: 10 }]),
      frequency: 'monthly',
      startDate: '2026-12-01',
    })
    .returning('id');
  ids.invoiceSeries = (series as { id: string }).id;
  const [suggestion] = await ctx.tdb
    .db('invoice_payment_suggestions')
    .insert({ teamId: a.team.id, invoiceId: ids.invoice, transactionId: ids.transaction, reason: 'amount' })
    .returning('id');
  ids.paymentSuggestion = (suggestion as { id: string }).id;
  const [statementImport] = await ctx.tdb
    .db('imports')
    .insert({
      teamId: a.team.id,
      bankAccountId: ids.account,
      format: 'csv',
      fileName: `${MARKER} statement.csv`,
      fileSize: 10,
      storageKey: `${a.team.id}/imports/acme-private`,
      status: 'failed',
      errors: JSON.stringify([{ line: 2, message: MARKER }]),
    })
    .returning('id');
  ids.import = (statementImport as { id: string }).id;
  ids.invoiceProduct = (await post('/invoice-products', { name: `${MARKER} product`, price: 120, vatRate: 19 })).id;
  const [exported] = await ctx.tdb
    .db('exports')
    .insert({ teamId: a.team.id, requestedBy: a.user.id, filters: { q: MARKER }, formats: ['csv'], email: 'books@acme.example' })
    .returning('id');
  ids.export = (exported as { id: string }).id;
  const [accountantLink] = await ctx.tdb
    .db('accountant_links')
    .insert({
      teamId: a.team.id,
      exportId: ids.export,
      tokenHash: `${MARKER}-hash`,
      email: 'books@acme.example',
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning('id');
  ids.accountantLink = (accountantLink as { id: string }).id;
  ids.transactionRule = (
    await post('/transaction-rules', {
      name: `${MARKER} rule`,
      conditions: { any: [{ all: [{ field: 'name', operator: 'contains', value: MARKER }] }] },
      actions: { note: MARKER },
    })
  ).id;
  const [ruleRun] = await ctx.tdb
    .db('transaction_rule_runs')
    .insert({ teamId: a.team.id, ruleId: ids.transactionRule, dryRun: true, error: MARKER })
    .returning('id');
  ids.ruleRun = (ruleRun as { id: string }).id;
  const [recurring] = await ctx.tdb
    .db('recurring_payments')
    .insert({
      teamId: a.team.id,
      counterpartyKey: 'acme private',
      counterpartyName: `${MARKER} subscription`,
      currency: 'EUR',
      frequency: 'monthly',
      expectedAmount: -9.99,
      lastAmount: -9.99,
      previousAmount: -9.99,
      lastDate: '2026-04-01',
      lastTransactionId: ids.transaction,
      firstDate: '2026-01-01',
      occurrences: 4,
      nextExpectedDate: '2026-05-01',
      detectedOn: '2026-03-01',
    })
    .returning('id');
  ids.recurringPayment = (recurring as { id: string }).id;
  const [endpoint] = await ctx.tdb
    .db('webhook_endpoints')
    .insert({
      teamId: a.team.id,
      url: 'https://hooks.acme.example/private',
      description: `${MARKER} endpoint`,
      eventTypes: ['transaction.created'],
      secretEncrypted: encrypt('whsec_QUNNRS1QUklWQVRFLXNlY3JldC0zMi1ieXRlcy1sb25nIQ==', keyringOf(ctx.api.deps.config)),
    })
    .returning('id');
  ids.webhookEndpoint = (endpoint as { id: string }).id;
  const [delivery] = await ctx.tdb
    .db('webhook_deliveries')
    .insert({
      teamId: a.team.id,
      endpointId: ids.webhookEndpoint,
      eventId: randomUUID(),
      eventType: 'transaction.created',
      payload: JSON.stringify({ type: 'transaction.created', timestamp: '2026-11-25T00:00:00.000Z', data: { name: MARKER } }),
      status: 'delivered',
    })
    .returning('id');
  ids.webhookDelivery = (delivery as { id: string }).id;
  const [agentAction] = await ctx.tdb
    .db('agent_actions')
    .insert({
      teamId: a.team.id,
      operation: 'transactions.bulkUpdate',
      input: { ids: [ids.transaction], set: { note: MARKER } },
      preview: { summary: MARKER, count: 1, sample: [] },
      tool: 'bulk_update_transactions',
      via: 'mcp',
      proposedByUserId: a.user.id,
      proposedByKind: 'session',
      expiresAt: new Date(Date.now() + 3_600_000),
    })
    .returning('id');
  ids.agentAction = (agentAction as { id: string }).id;
  // A type name is public (every team's settings list it), so it is aimed at but is no secret of A.
  ids.notificationType = 'transactions_created';
  const trpc = trpcAs(ctx.api, a.sessionToken);
  ids.apiKey = (await trpc.apiKeys.upsert.mutate({ name: `${MARKER} key`, scopes: ['apis.read'] })).data.id;
  ids.oauthApplication = (
    await trpc.oauthApplications.create.mutate({ name: `${MARKER} app`, redirectUris: ['https://acme.example/cb'], scopes: ['apis.read'] })
  ).id;
});

const secretsOfA = () => [MARKER, ...Object.values(ids).filter((v) => v !== ids.categorySlug && v !== ids.notificationType)];

/** Every row A owns, as one digest per table (and A's team row): equal before and after means untouched. */
async function rowsOfA(): Promise<Record<string, string>> {
  const tables = await ctx.tdb
    .db('information_schema.columns')
    .where({ table_schema: 'public', column_name: 'team_id' })
    .pluck<string[]>('table_name');
  const parts = [
    ...tables.map(
      (t) => `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${t}" x where team_id = :team`,
    ),
    `select 'teams' as t, md5(x::text) as h from teams x where id = :team`,
  ];
  const { rows } = await ctx.tdb.db.raw<{ rows: { t: string; h: string }[] }>(parts.join(' union all '), { team: ctx.acme.team.id });
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

/** Aims every id-carrying field at A's resource; a field this test cannot aim is a missing probe. */
function aimAtA(value: unknown, owner: string, where: string, missing: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => aimAtA(v, owner, where, missing));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const resource = k === 'id' || k === 'ids' ? owner : RESOURCE_BY_FIELD[k];
      if (resource) {
        const id = ids[resource];
        if (!id) missing.add(`${where}: ${k} → ${resource}`);
        return [k, Array.isArray(v) ? [id] : id];
      }
      if (ID_FIELD.test(k)) missing.add(`${where}: ${k}`);
      return [k, aimAtA(v, owner, where, missing)];
    }),
  );
}

const sample = (schema: z.ZodType | undefined): unknown =>
  schema ? fc.sample(plausibleFor(schema), { numRuns: 1, seed: 7 })[0] : undefined;

function restProbe(route: Mounted, missing: Set<string>) {
  const name = `${route.method} ${route.path}`;
  const [, segment, nested] = route.path.split('/');
  const owner = RESOURCE_BY_PATH[route.path] ?? RESOURCE_BY_SEGMENT[`${segment}/${nested}`] ?? RESOURCE_BY_SEGMENT[segment] ?? '';
  const path = route.path.replace(/:(\w+)/g, (_m, param: string) => {
    const resource = param === 'id' ? owner : (RESOURCE_BY_FIELD[param] ?? RESOURCE_BY_PARAM[param]);
    if (!resource || !ids[resource]) missing.add(`${name}: path parameter ${param}`);
    return (resource && ids[resource]) || randomUUID();
  });
  const query = new URLSearchParams();
  const q = aimAtA(sample(route.query), owner, name, missing);
  if (q && typeof q === 'object') {
    for (const [k, v] of Object.entries(q))
      for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined) query.append(k, String(item));
  }
  const body = aimAtA(sample(route.body), owner, name, missing);
  return { name, url: `${path}${query.size ? `?${query.toString()}` : ''}`, body };
}

describe('tenancy: team B aims every operation at team A', () => {
  const routes = restDoors();
  const procedures = trpcProcedures();

  it('knows how to aim every route and procedure at A', () => {
    const missing = new Set<string>();
    for (const route of routes) restProbe(route, missing);
    for (const [path, p] of procedures) {
      const routerName = path.split('.')[0];
      if (!(routerName in RESOURCE_BY_ROUTER)) missing.add(`tRPC ${path}: router ${routerName}`);
      aimAtA(sample(p._def.inputs[0]), RESOURCE_BY_PROCEDURE[path] ?? RESOURCE_BY_ROUTER[routerName] ?? '', `tRPC ${path}`, missing);
    }
    expect([...missing]).toEqual([]);
  });

  it.each(['session', 'API key (apis.all)', 'OAuth token (apis.all)'] as const)(
    'leaks and changes nothing of A, as B with a %s',
    async (kind) => {
      const b = ctx.other;
      const token =
        kind === 'session'
          ? b.sessionToken
          : kind === 'API key (apis.all)'
            ? await insertApiKey(ctx.tdb.db, { teamId: b.team.id, userId: b.user.id }, ['apis.all'])
            : await oauthTokenFor(b.sessionToken);
      const before = await rowsOfA();
      const leaks: string[] = [];
      const unused = new Set<string>();
      const statuses: number[] = [];
      // What came back is a leak only if it is A's and the request did not carry it (a 404 names the id it was given).
      const check = (name: string, sent: string, status: number, text: string) => {
        statuses.push(status);
        const leaked = secretsOfA().filter((s) => text.includes(s) && !sent.includes(s));
        if (leaked.length) leaks.push(`${name} → ${status} carried ${leaked.join(', ')}`);
        if (status >= 500) leaks.push(`${name} → ${status}`);
      };

      for (const route of routes) {
        const probe = restProbe(route, unused);
        const res = await send(route.method, probe.url, token, probe.body);
        check(probe.name, probe.url + JSON.stringify(probe.body ?? null), res.status, await res.text());
      }
      for (const [path, p] of procedures) {
        const input = aimAtA(
          sample(p._def.inputs[0]),
          RESOURCE_BY_PROCEDURE[path] ?? RESOURCE_BY_ROUTER[path.split('.')[0]] ?? '',
          path,
          unused,
        );
        const res =
          p._def.type === 'query'
            ? await ctx.api.fetch(`/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, {
                token,
              })
            : await ctx.api.fetch(`/trpc/${path}`, {
                method: 'POST',
                token,
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(input ?? null),
              });
        check(`tRPC ${path}`, JSON.stringify(input ?? null), res.status, await res.text());
      }

      expect(leaks).toEqual([]);
      expect(await rowsOfA()).toEqual(before);
      // A refused credential would make every probe a 401, and the checks above would pass on nothing:
      // a good share of the probes must have been let in (answered, or refused for the team's sake with 403/404).
      const admitted = statuses.filter((st) => (st >= 200 && st < 300) || st === 403 || st === 404).length;
      expect(admitted).toBeGreaterThanOrEqual(Math.floor(statuses.length / 3));
    },
  );
});

/** An OAuth access token for B through the real authorization-code flow (confidential client). */
async function oauthTokenFor(sessionToken: string): Promise<string> {
  const app = await trpcAs(ctx.api, sessionToken).oauthApplications.create.mutate({
    name: 'B tool',
    redirectUris: ['https://b.example/cb'],
    scopes: ['apis.all'],
  });
  const consent = await ctx.api.fetch('/oauth/authorize', {
    method: 'POST',
    token: sessionToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: 'https://b.example/cb',
      scope: 'apis.all',
      state: 's',
      decision: 'allow',
    }),
  });
  const code = new URL(((await consent.json()) as { redirect_url: string }).redirect_url).searchParams.get('code');
  const res = await ctx.api.fetch('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'https://b.example/cb',
      client_id: app.client_id,
      client_secret: app.client_secret,
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
