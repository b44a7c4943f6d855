import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort, tcpAnswers } from '../../scripts/lib/ports';
import { signBankB } from '../fakes/bank-b';
import { signedDelivery, startMessagingFake } from '../fakes/messaging';
import { testConfig, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { oauthAccessToken } from '../support/oauth';
import { killHard, spawnTs } from '../support/processes';
import { trpcAs } from '../support/trpc';

/**
 * The API and a worker run as real processes logging everything (LOG_LEVEL=trace) while a client
 * uses every kind of secret: a session, API keys (right and wrong), the whole OAuth flow, the inbox
 * password, signed webhooks, the messaging provider's token. Then every secret is looked for in what
 * the processes printed, and none may be there.
 */
const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;
const SECRETS = {
  AUTH_JWT_SECRET: testConfig().AUTH_JWT_SECRET!,
  ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  BANK_B_WEBHOOK_SECRETS: secret('bank-b'),
  MESSAGING_APP_SECRET: secret('app-secret'),
  MESSAGING_ACCESS_TOKEN: secret('access-token'),
  MESSAGING_VERIFY_TOKEN: secret('verify-token'),
  INBOX_WEBHOOK_PASSWORD: secret('inbox-password'),
};

let messaging: Awaited<ReturnType<typeof startMessagingFake>>;
const processes: ChildProcess[] = [];
let output = '';

function startProcess(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawnTs(script, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  processes.push(child);
  return child;
}

const tdb = withTestDatabase({
  setUp: async () => {
    messaging = await startMessagingFake(SECRETS.MESSAGING_ACCESS_TOKEN);
  },
  tearDown: async () => {
    await Promise.all(processes.map((p) => killHard(p)));
    await messaging?.close();
  },
});

describe('secrets in the logs', () => {
  it('none of the secrets a full session used appears in anything the processes printed', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...SECRETS,
      NODE_ENV: 'test',
      LOG_LEVEL: 'trace',
      LOG_FORMAT: 'json',
      DATABASE_URL: tdb.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      INBOX_WEBHOOK_USERNAME: 'inbox',
      INBOX_DOMAIN: 'in.example.com',
      MESSAGING_API_URL: messaging.url,
      TEMPORAL_TASK_QUEUE: `secrets-${randomBytes(4).toString('hex')}`,
    };
    startProcess('worker/main.ts', env);
    const apiProcess = startProcess('api/main.ts', env);
    for (let i = 0; !(await tcpAnswers(`127.0.0.1:${port}`)); i++) {
      if (i > 300 || apiProcess.exitCode !== null) throw new Error(`the API did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const url = `http://127.0.0.1:${port}`;
    const api = {
      url,
      fetch: (path: string, init: RequestInit & { token?: string } = {}) => {
        const { token, headers, ...rest } = init;
        return fetch(url + path, { ...rest, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(headers as object) } });
      },
    } as unknown as TestApi;

    const acme = await createTeamAndOwner(tdb.db, 'Acme');
    const used: string[] = [...Object.values(SECRETS), acme.sessionToken];

    expect((await api.fetch('/transactions', { token: acme.sessionToken })).status).toBe(200);
    const created = await trpcAs(api, acme.sessionToken).apiKeys.upsert.mutate({ name: 'ci', scopes: ['transactions.read'] });
    used.push(created.key!);
    expect((await api.fetch('/transactions', { token: created.key })).status).toBe(200);
    const wrongKey = `svc_${randomBytes(32).toString('hex')}`;
    used.push(wrongKey);
    expect((await api.fetch('/transactions', { token: wrongKey })).status).toBe(401);

    const app = await trpcAs(api, acme.sessionToken).oauthApplications.create.mutate({
      name: 'Agent',
      redirectUris: ['https://client.example.com/cb'],
      scopes: ['transactions.read'],
    });
    used.push(app.client_secret!);
    const tokens = await oauthAccessToken(api, acme.sessionToken, acme.sessionToken, ['transactions.read']);
    used.push(tokens.access_token, tokens.refresh_token);
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const wrongSecret = secret('wrong-client-secret');
    used.push(wrongSecret);
    const refused = await api.fetch(
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.client_id, client_secret: wrongSecret }),
    );
    expect(refused.status).toBe(401);
    expect((await api.fetch('/transactions', { token: tokens.access_token })).status).toBe(200);

    const basic = (password: string) => `Basic ${Buffer.from(`inbox:${password}`).toString('base64')}`;
    const inbox = (password: string) =>
      api.fetch('/webhook/inbox', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic(password) },
        body: JSON.stringify({
          MessageID: 'm-1',
          OriginalRecipient: `${acme.team.inboxId}@in.example.com`,
          FromFull: { Email: 'vendor@example.org', Name: 'Vendor' },
          Subject: 'Your receipt',
          Attachments: [],
        }),
      });
    const wrongPassword = secret('wrong-password');
    used.push(wrongPassword);
    expect((await inbox(SECRETS.INBOX_WEBHOOK_PASSWORD)).status).toBe(200);
    expect((await inbox(wrongPassword)).status).toBe(401);

    const bankB = signBankB(
      { id: `wh_${randomBytes(6).toString('hex')}`, type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} },
      [SECRETS.BANK_B_WEBHOOK_SECRETS],
    );
    expect((await api.fetch('/webhook/bank-b', { method: 'POST', headers: bankB.headers, body: bankB.raw })).status).toBe(200);

    const verify = await api.fetch(
      `/webhook/messaging?hub.mode=subscribe&hub.verify_token=${SECRETS.MESSAGING_VERIFY_TOKEN}&hub.challenge=42`,
    );
    expect(verify.status).toBe(200);
    const chat = signedDelivery(SECRETS.MESSAGING_APP_SECRET, [
      { from: '4915550001111', id: `wamid.secrets.${randomBytes(4).toString('hex')}`, type: 'text', text: { body: 'hello' } },
    ]);
    expect((await api.fetch('/webhook/messaging', { method: 'POST', headers: chat.headers, body: chat.raw })).status).toBe(200);
    // The worker answered through the provider, with the provider token in its request.
    await messaging.waitFor(() => true, 60_000);

    for (const p of processes) p.kill('SIGTERM');
    await Promise.all(processes.map((p) => (p.exitCode === null ? new Promise((r) => p.once('exit', r)) : Promise.resolve())));

    // The logs were really captured at the finest level: requests of every kind are in them.
    for (const path of ['/transactions', '/oauth/token', '/webhook/inbox', '/webhook/bank-b', '/webhook/messaging'])
      expect(output).toContain(path);
    const leaked = used.filter((s) => output.includes(s)).map((s) => `${s.slice(0, 6)}…`);
    console.log(`secrets in the logs: ${used.length} secrets looked for in ${output.split('\n').length} log lines; found ${leaked.length}`);
    expect(leaked).toEqual([]);
  }, 180_000);
});
