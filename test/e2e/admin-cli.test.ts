import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import type { UntypedJson } from '../support/untyped-json';
import { randomBytes } from 'node:crypto';
import { decrypt, encrypt, keyIdOf, keyringOf } from '../../shared/domain/crypto/encryption';
import { createTeamAndOwner } from '../support/fixtures';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
let api: TestApi;

async function admin(...args: string[]): Promise<{ code: number; json: UntypedJson; stderr: string }> {
  return adminWith({}, ...args);
}

async function adminWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; json: UntypedJson; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'admin.ts'), ...args],
      {
        env: { ...process.env, DATABASE_URL: tdb.url, LOG_LEVEL: 'silent', ...env },
      },
    );
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, json: e.stdout ? JSON.parse(e.stdout) : null, stderr: e.stderr };
  }
}

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db);
  },
  tearDown: async () => {
    await api?.stop();
  },
});

describe('npm run admin', () => {
  it('migrate reports nothing to apply on a migrated database', async () => {
    const out = await admin('migrate');
    expect(out.code).toBe(0);
    expect(out.json).toEqual({ applied: [] });
  });

  it('create-user makes a team owner whose session token works against the API', async () => {
    const out = await admin('create-user', '--email', 'ada@example.com', '--name', 'Ada', '--team', 'Analytical Engines');
    expect(out.code).toBe(0);
    expect(out.json).toMatchObject({
      role: 'owner',
      userId: expect.any(String),
      teamId: expect.any(String),
      sessionToken: expect.any(String),
    });
    const team = await tdb.db('teams').where({ id: out.json.teamId }).first();
    expect(team.name).toBe('Analytical Engines');
    const res = await api.fetch('/transactions', { token: out.json.sessionToken });
    expect(res.status).toBe(200);

    const member = await admin('create-user', '--email', 'bob@example.com', '--name', 'Bob', '--team-id', out.json.teamId);
    expect(member.json).toMatchObject({ role: 'member', teamId: out.json.teamId });

    const again = await admin('session-token', '--user-id', member.json.userId);
    expect(again.json.teamId).toBe(out.json.teamId);
    expect((await api.fetch('/transactions', { token: again.json.sessionToken })).status).toBe(200);
  });

  it('refuses a duplicate email, an unknown team and missing options, changing nothing', async () => {
    const before = await tdb.db('users').count('* as n').first();
    const dup = await admin('create-user', '--email', 'ADA@example.com', '--name', 'Ada again');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
    const unknown = await admin('create-user', '--email', 'x@example.com', '--team-id', '00000000-0000-4000-8000-000000000000');
    expect(unknown.stderr).toContain('not found');
    const missing = await admin('create-user', '--name', 'Nobody');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--email is required');
    const after = await tdb.db('users').count('* as n').first();
    expect(after).toEqual(before);
  });

  it('seed-demo is idempotent', async () => {
    const first = await admin('seed-demo');
    const second = await admin('seed-demo');
    expect(first.json.created).toBe(true);
    expect(second.json.created).toBe(false);
    expect(second.json.teamId).toBe(first.json.teamId);
  });

  it('encryption-status counts values under a retired key, and re-encrypt seals them under the current one', async () => {
    const oldKey = randomBytes(32).toString('hex');
    const newKey = randomBytes(32).toString('hex');
    const { team } = await createTeamAndOwner(tdb.db, 'Rotating');
    const [endpoint] = await tdb
      .db('webhook_endpoints')
      .insert({
        teamId: team.id,
        url: 'https://hooks.example.com/x',
        eventTypes: ['transaction.created'],
        secretEncrypted: encrypt('whsec_kept', keyringOf({ ENCRYPTION_KEY: oldKey })),
      })
      .returning<{ id: string }[]>('id');
    const rotated = { ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_RETIRED: oldKey };

    const before = await adminWith(rotated, 'encryption-status');
    expect(before.code).toBe(0);
    expect(before.json).toEqual({
      keyId: keyIdOf(newKey),
      retiredKeyIds: [keyIdOf(oldKey)],
      notUnderCurrentKey: { 'bank-connections': 0, 'webhook-endpoints': 1 },
    });

    const done = await adminWith(rotated, 're-encrypt');
    expect(done.json).toEqual({
      keyId: keyIdOf(newKey),
      columns: { 'bank-connections': { rewritten: 0, unreadable: 0 }, 'webhook-endpoints': { rewritten: 1, unreadable: 0 } },
    });
    expect((await adminWith(rotated, 'encryption-status')).json.notUnderCurrentKey).toEqual({
      'bank-connections': 0,
      'webhook-endpoints': 0,
    });
    const row = await tdb.db('webhook_endpoints').where({ id: endpoint.id }).first<{ secretEncrypted: string }>('secretEncrypted');
    expect(decrypt(row.secretEncrypted, keyringOf({ ENCRYPTION_KEY: newKey }))).toBe('whsec_kept');

    // Without the retired key, the CLI says which key it lacks rather than touching anything.
    await tdb
      .db('webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ secretEncrypted: encrypt('whsec_other', keyringOf({ ENCRYPTION_KEY: oldKey })) });
    const lost = await adminWith({ ENCRYPTION_KEY: newKey }, 're-encrypt');
    expect(lost.json.columns['webhook-endpoints']).toEqual({ rewritten: 0, unreadable: 1 });
  });
});
