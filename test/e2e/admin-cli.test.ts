import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import type { UntypedJson } from '../support/untyped-json';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
let api: TestApi;

async function admin(...args: string[]): Promise<{ code: number; json: UntypedJson; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'admin.ts'), ...args],
      {
        env: { ...process.env, DATABASE_URL: tdb.url, LOG_LEVEL: 'silent' },
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
});
