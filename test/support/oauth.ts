import type { Scope } from '../../shared/domain/auth/scopes';
import type { TokenResponse } from '../../shared/domain/oauth/schema';
import type { TestApi } from './api';
import { trpcAs } from './trpc';

const REDIRECT = 'https://client.example.com/callback';

/**
 * An OAuth access token through the real authorization-code flow: an application registered by
 * `ownerToken`'s team, consent given by `userToken` (a session; the token acts in that session's
 * team), the code exchanged at the token endpoint.
 */
export async function oauthAccessToken(api: TestApi, ownerToken: string, userToken: string, scopes: Scope[]): Promise<TokenResponse> {
  const app = await trpcAs(api, ownerToken).oauthApplications.create.mutate({ name: 'Agent', redirectUris: [REDIRECT], scopes });
  const consent = await api.fetch('/oauth/authorize', {
    method: 'POST',
    token: userToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: scopes.join(' '),
      state: 'st',
      decision: 'allow',
    }),
  });
  if (consent.status !== 200) throw new Error(`consent failed: ${consent.status} ${await consent.text()}`);
  const code = new URL((await consent.json()).redirect_url).searchParams.get('code');
  const res = await api.fetch('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: app.client_secret,
    }),
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as TokenResponse;
}
