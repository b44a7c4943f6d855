import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { startTestApi, type TestApi } from '../support/api';
import { launchChromium } from '../support/chromium';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { trpcAs } from '../support/trpc';

let api: TestApi;
let browser: Browser;
let callback: http.Server;
let callbackUrl: string;
const received: URL[] = [];

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db);
    // The third-party application's redirect target: a loopback server that records what arrives.
    callback = http.createServer((req, res) => {
      received.push(new URL(req.url!, callbackUrl));
      res.end('<html><body>client received the code</body></html>');
    });
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', () => r()));
    callbackUrl = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
    browser = await launchChromium();
  },
  tearDown: async () => {
    await browser?.close();
    callback?.close();
    await api?.stop();
  },
});

describe('the consent page in a real browser', () => {
  it('signs in with the session cookie, shows the consent, and on Allow redirects to the client with a code', async () => {
    const owner = await createTeamAndOwner(tdb.db, 'Browser Team');
    const app = await trpcAs(api, owner.sessionToken).oauthApplications.create.mutate({
      name: 'Ledger Sync',
      redirectUris: [callbackUrl],
      scopes: ['transactions.read', 'invoices.read'],
    });

    // The dashboard turns the identity provider's session token into our httpOnly session cookie.
    const signIn = await api.fetch('/auth/session', { method: 'POST', token: owner.sessionToken });
    expect(signIn.status).toBe(200);
    const setCookie = signIn.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/svc_session=.*httponly/i);
    expect(setCookie).toMatch(/samesite=lax/i);

    const context = await browser.newContext();
    await context.addCookies([
      { name: 'svc_session', value: /svc_session=([^;]+)/.exec(setCookie)![1], url: api.url, httpOnly: true, sameSite: 'Lax' },
    ]);
    const page = await context.newPage();

    const verifier = randomBytes(32).toString('base64url');
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: callbackUrl,
      scope: 'transactions.read invoices.read',
      state: 'browser-state-1',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    await page.goto(`${api.url}/oauth/authorize?${params.toString()}`);
    await expect(page.locator('h1').innerText()).resolves.toContain('Ledger Sync wants access to Browser Team');
    const items = await page.locator('li').allInnerTexts();
    expect(items.join('\n')).toContain('transactions.read');
    expect(items.join('\n')).toContain('invoices.read');

    await Promise.all([page.waitForURL((u) => u.toString().startsWith(callbackUrl)), page.click('button[value=allow]')]);
    const landed = new URL(page.url());
    expect(received.some((u) => u.pathname === '/callback' && u.searchParams.get('code') === landed.searchParams.get('code'))).toBe(true);
    expect(landed.searchParams.get('state')).toBe('browser-state-1');
    const code = landed.searchParams.get('code')!;
    expect(code).toMatch(/^svc_code_/);

    // The code is real: the client exchanges it.
    const token = await api.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: callbackUrl,
        code_verifier: verifier,
        client_id: app.client_id,
        client_secret: app.client_secret!,
      }).toString(),
    });
    expect(token.status).toBe(200);
    expect((await token.json()).scope).toBe('transactions.read invoices.read');
    await context.close();
  });

  it('refuses a cross-site form post without the CSRF token', async () => {
    const owner = await createTeamAndOwner(tdb.db, 'CSRF Team');
    const res = await api.fetch('/oauth/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_session=${owner.sessionToken}` },
      body: new URLSearchParams({ decision: 'allow', client_id: 'x', redirect_uri: callbackUrl }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'Forbidden', description: 'Missing or invalid CSRF token' });
  });
});
