import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { OAUTH_REDIRECT_PATH } from '../../api/reference-page';
import { startTestApi, type TestApi } from '../support/api';
import { launchChromium } from '../support/chromium';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { trpcAs } from '../support/trpc';

let api: TestApi;
let browser: Browser;

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db);
    browser = await launchChromium();
  },
  tearDown: async () => {
    await browser?.close();
    await api?.stop();
  },
});

describe("the reference page's Authorize, in a real browser", () => {
  it('runs the OAuth2 scheme: authorization code with PKCE for a public application, through our consent page, to a token that calls the API', async () => {
    const owner = await createTeamAndOwner(tdb.db, 'Reference Team');
    const app = await trpcAs(api, owner.sessionToken).oauthApplications.create.mutate({
      name: 'API reference',
      redirectUris: [`${api.url}${OAUTH_REDIRECT_PATH}`],
      scopes: ['transactions.read'],
      isPublic: true,
    });
    expect(app.client_secret).toBeNull();
    const signIn = await api.fetch('/auth/session', { method: 'POST', token: owner.sessionToken });
    const cookie = /svc_session=([^;]+)/.exec(signIn.headers.get('set-cookie')!)![1];
    const context = await browser.newContext();
    await context.addCookies([{ name: 'svc_session', value: cookie, url: api.url, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    // Swagger UI's bundle is large, and CI machines are busy.
    page.setDefaultTimeout(30_000);
    // What the page sends to the token endpoint: the PKCE verifier, and no secret.
    const tokenRequests: string[] = [];
    page.on('request', (req) => {
      if (req.url() === `${api.url}/oauth/token`) tokenRequests.push(req.postData() ?? '');
    });

    await page.goto(`${api.url}/`, { waitUntil: 'domcontentloaded' });
    await page.click('button.authorize');
    await page.fill('input[id^="client_id"]', app.client_id);
    // The checkbox is drawn by its label.
    await page.click('label[for="transactions.read-authorizationCode-checkbox-oauth2"]');
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('.auth-btn-wrapper button.authorize')]);

    await popup.waitForSelector('button[value=allow]');
    await expect(popup.locator('h1').innerText()).resolves.toContain('API reference wants access to Reference Team');
    const requested = new URL(popup.url());
    expect(requested.searchParams.get('code_challenge_method')).toBe('S256');
    expect(requested.searchParams.get('scope')).toBe('transactions.read');
    await Promise.all([popup.waitForEvent('close'), popup.click('button[value=allow]')]);

    // Authorized: the dialog offers to log out, and the page holds the token.
    await page.waitForSelector('.auth-btn-wrapper button:has-text("Logout")');
    const screenshot = path.join(tmpdir(), `reference-authorize-${Date.now()}.png`);
    await page.screenshot({ path: screenshot, fullPage: false });
    console.info(`Authorize on the reference page, done: ${screenshot}`);
    expect(tokenRequests).toHaveLength(1);
    const sent = new URLSearchParams(tokenRequests[0]);
    expect(sent.get('grant_type')).toBe('authorization_code');
    expect(sent.get('code_verifier')).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(sent.get('client_secret')).toBeNull();

    // The token the page holds is a real one, with the granted scope and no other.
    type SwaggerUi = { authSelectors: { authorized(): { toJS(): Record<string, { token?: { access_token?: string } }> } } };
    const token = await page.evaluate(
      () => (globalThis as unknown as { ui: SwaggerUi }).ui.authSelectors.authorized().toJS().oauth2?.token?.access_token ?? null,
    );
    expect(token).toMatch(/^svc_access_token_/);
    expect((await api.fetch('/transactions', { token: token! })).status).toBe(200);
    expect((await api.fetch('/invoices', { token: token! })).status).toBe(403);
    await context.close();
  }, 150_000);
});
