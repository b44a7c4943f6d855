import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../shared/db/knex';
import { RETENTION_KINDS, retentionContract, retentionProgress, type RetentionProgress } from '../../shared/temporal/retention/contract';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from '../support/worker';

/**
 * The daily prune on a database holding, of every kind, rows past their window and rows within it,
 * and old rows something still needs: exactly the old unneeded ones go, in batches of two.
 */
let worker: TestWorker;
const tdb = withTestDatabase({
  setUp: async () => {
    worker = await startTestWorker(testConfig({ TEMPORAL_TASK_QUEUE: uniqueTaskQueue('retention') }), tdb.db);
  },
  tearDown: () => worker?.stop(),
});

const ago = (db: Db, interval: string) => db.raw(`now() - interval '${interval}'`);
const ahead = (db: Db, interval: string) => db.raw(`now() + interval '${interval}'`);
const hash = () => randomBytes(32).toString('hex');

/** Seeds one team's rows of every kind; returns the ids the assertions name. */
async function seed(db: Db) {
  const { team, user: owner } = await createTeamAndOwner(db, 'Retention');
  const { user: member } = await createTeamAndOwner(db, 'Elsewhere');
  await db('team_members').insert({ teamId: team.id, userId: member.id });
  const teamId = team.id;

  // Provider webhooks: acted on long ago (3: more than a batch), acted on lately, failed long ago.
  const event = (key: string, outcome: string, age: string) => ({
    provider: 'payments',
    eventKey: key,
    eventType: 'x',
    outcome,
    payload: JSON.stringify({ key }),
    receivedAt: ago(db, age),
    processedAt: ago(db, age),
  });
  await db('webhook_events').insert([
    event('old-1', 'processed', '40 days'),
    event('old-2', 'ignored', '40 days'),
    event('old-3', 'processed', '40 days'),
    event('recent', 'processed', '1 day'),
    event('old-failed', 'failed', '40 days'),
  ]);

  // Webhook delivery attempts: of a delivered delivery (3 old, 1 recent) and of one still running (old).
  const [endpoint] = await db('webhook_endpoints').insert(
    { teamId, url: 'https://example.com/hook', eventTypes: ['transaction.created'], secretEncrypted: 'x' },
    ['id'],
  );
  const delivery = (status: string) => ({
    teamId,
    endpointId: (endpoint as { id: string }).id,
    eventId: randomUUID(),
    eventType: 'transaction.created',
    payload: '{}',
    status,
  });
  const [delivered, running]: { id: string }[] = await db('webhook_deliveries').insert(
    [delivery('delivered'), delivery('running')],
    ['id'],
  );
  const attempt = (deliveryId: string, n: number, age: string) => ({
    teamId,
    deliveryId,
    attempt: n,
    durationMs: 5,
    createdAt: ago(db, age),
  });
  await db('webhook_delivery_attempts').insert([
    attempt(delivered.id, 1, '40 days'),
    attempt(delivered.id, 2, '40 days'),
    attempt(delivered.id, 3, '40 days'),
    attempt(delivered.id, 4, '1 day'),
    attempt(running.id, 1, '40 days'),
  ]);

  // Notifications (90 days): the owner's and the team's, read by whom, and one with an email not sent.
  const notify = async (name: string, forUser: string | null, age: string) => {
    const [row] = await db('notifications').insert(
      { teamId, userId: forUser, type: 'transactions_created', metadata: { name }, createdAt: ago(db, age) },
      ['id'],
    );
    return (row as { id: string }).id;
  };
  const read = (notificationId: string, userId: string, status = 'read') =>
    db('notification_states').insert({ notificationId, userId, teamId, status });
  const n = {
    ownersRead: await notify('owners-read', owner.id, '100 days'),
    ownersUnread: await notify('owners-unread', owner.id, '100 days'),
    teamsReadByAll: await notify('teams-read-by-all', null, '100 days'),
    teamsReadByOne: await notify('teams-read-by-one', null, '100 days'),
    ownersRecent: await notify('owners-recent', owner.id, '10 days'),
    ownersEmailDue: await notify('owners-email-due', owner.id, '100 days'),
  };
  await read(n.ownersRead, owner.id);
  await read(n.teamsReadByAll, owner.id);
  await read(n.teamsReadByAll, member.id, 'archived');
  await read(n.teamsReadByOne, owner.id);
  await read(n.ownersRecent, owner.id);
  await read(n.ownersEmailDue, owner.id);
  await db('notification_deliveries').insert({ notificationId: n.ownersEmailDue, teamId, userId: owner.id, status: 'pending' });

  // Idempotency keys: past their 24 hours, and within them.
  const key = (k: string, age: string) => ({ teamId, credential: 'c', key: k, requestHash: hash(), createdAt: ago(db, age) });
  await db('idempotency_keys').insert([key('expired', '3 days'), key('live', '1 hour')]);

  // Public invoice links (7 days): revoked long ago, revoked lately, never revoked.
  const [invoice] = await db('invoices').insert({ teamId, invoiceNumber: 'INV-1', currency: 'EUR' }, ['id']);
  const link = (revokedAt: unknown) => ({ teamId, invoiceId: (invoice as { id: string }).id, tokenHash: hash(), revokedAt });
  await db('invoice_links').insert([link(ago(db, '10 days')), link(ago(db, '1 day'))]);
  await db('invoice_links').insert(link(null));

  // OAuth codes (7 days past expiry) and token families (30 days after their last token ended).
  const [app] = await db('oauth_applications').insert(
    { teamId, name: 'App', clientId: `app-${randomUUID()}`, redirectUris: ['https://example.com/cb'] },
    ['id'],
  );
  const applicationId = (app as { id: string }).id;
  const code = (expiresAt: unknown) => ({
    teamId,
    applicationId,
    userId: owner.id,
    codeHash: hash(),
    redirectUri: 'https://example.com/cb',
    scopes: ['apis.read'],
    expiresAt,
  });
  const [unusedCode, usedCode]: { id: string }[] = await db('oauth_authorization_codes').insert(
    [code(ago(db, '10 days')), code(ago(db, '10 days')), code(ahead(db, '5 minutes'))],
    ['id'],
  );
  const token = (familyId: string, t: { expiresAt: unknown; refreshExpiresAt?: unknown; revokedAt?: unknown; codeId?: string }) => ({
    teamId,
    applicationId,
    userId: owner.id,
    familyId,
    accessTokenHash: hash(),
    scopes: ['apis.read'],
    expiresAt: t.expiresAt,
    refreshExpiresAt: t.refreshExpiresAt ?? null,
    revokedAt: t.revokedAt ?? null,
    authorizationCodeId: t.codeId ?? null,
  });
  const families = { ended: randomUUID(), live: randomUUID(), revoked: randomUUID() };
  await db('oauth_tokens').insert([
    token(families.ended, { expiresAt: ago(db, '50 days'), refreshExpiresAt: ago(db, '40 days') }),
    token(families.ended, { expiresAt: ago(db, '45 days'), refreshExpiresAt: ago(db, '35 days') }),
    // A rotated token long expired, in a family whose current token still refreshes: kept (reuse detection).
    token(families.live, { expiresAt: ago(db, '60 days'), refreshExpiresAt: ago(db, '50 days'), codeId: usedCode.id }),
    token(families.live, { expiresAt: ago(db, '1 hour'), refreshExpiresAt: ahead(db, '20 days') }),
    token(families.revoked, { expiresAt: ahead(db, '1 hour'), refreshExpiresAt: ahead(db, '20 days'), revokedAt: ago(db, '40 days') }),
  ]);
  return { teamId, n, unusedCode: unusedCode.id, families, delivered: delivered.id, running: running.id };
}

describe('Retention', () => {
  it('prunes exactly what is past its window and needed by nothing, kind by kind in batches, and says how many', async () => {
    const { db } = tdb;
    const s = await seed(db);

    const handle = await worker.client.workflow.start(retentionContract.workflowType, {
      taskQueue: worker.taskQueue,
      workflowId: `retention-test-${randomUUID()}`,
      args: [{ batchSize: 2 }],
    });
    const result = (await handle.result()) as RetentionProgress;
    expect(result).toEqual({
      stage: 'done',
      removed: {
        webhook_payloads: 3,
        delivery_attempts: 3,
        read_notifications: 2,
        idempotency_keys: 1,
        invoice_links: 1,
        authorization_codes: 1,
        oauth_tokens: 3,
      },
      total: 14,
    });
    expect(Object.keys(result.removed)).toEqual([...RETENTION_KINDS]);
    expect(await handle.query(retentionProgress)).toEqual(result);

    const payloads = await db('webhook_events').orderBy('event_key').select('event_key', 'payload');
    expect(payloads.map((r: { eventKey: string; payload: unknown }) => [r.eventKey, r.payload !== null])).toEqual([
      ['old-1', false],
      ['old-2', false],
      ['old-3', false],
      ['old-failed', true],
      ['recent', true],
    ]);

    const attempts = await db('webhook_delivery_attempts').orderBy(['delivery_id', 'attempt']).select('delivery_id', 'attempt');
    expect(
      attempts.map((a: { deliveryId: string; attempt: number }) => [a.deliveryId === s.delivered ? 'delivered' : 'running', a.attempt]),
    ).toEqual(
      expect.arrayContaining([
        ['delivered', 4],
        ['running', 1],
      ]),
    );
    expect(attempts).toHaveLength(2);

    const notifications = await db('notifications').where({ teamId: s.teamId }).pluck('id');
    expect(notifications.sort()).toEqual([s.n.ownersUnread, s.n.teamsReadByOne, s.n.ownersRecent, s.n.ownersEmailDue].sort());

    expect(await db('idempotency_keys').where({ teamId: s.teamId }).pluck('key')).toEqual(['live']);

    const links = await db('invoice_links')
      .where({ teamId: s.teamId })
      .select(db.raw(`revoked_at is null as live`), db.raw(`revoked_at > now() - interval '2 days' as recent`));
    expect(links).toHaveLength(2);
    expect(links.filter((l: { live: boolean; recent: boolean }) => l.live || l.recent)).toHaveLength(2);

    const codes = await db('oauth_authorization_codes').where({ teamId: s.teamId }).pluck('id');
    expect(codes).toHaveLength(2);
    expect(codes).not.toContain(s.unusedCode);

    const tokens = await db('oauth_tokens').where({ teamId: s.teamId }).pluck('family_id');
    expect(tokens).toEqual([s.families.live, s.families.live]);

    // A second run finds nothing more.
    const again = (await worker.client.workflow.execute(retentionContract.workflowType, {
      taskQueue: worker.taskQueue,
      workflowId: `retention-test-${randomUUID()}`,
      args: [{ batchSize: 2 }],
    })) as RetentionProgress;
    expect(again.total).toBe(0);
  }, 120_000);
});
