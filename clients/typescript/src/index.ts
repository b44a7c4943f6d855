import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

/** The envelope of every error the API answers with: `{error, description, details?, requestId?}`. */
export type FinopsError = components['schemas']['Error'];

export interface FinopsClientOptions {
  /** Where the API is served, without a trailing slash: `https://api.example.com`. */
  baseUrl: string;
  /** An API key, an OAuth access token or a session token: sent as `Authorization: Bearer …`. */
  token: string;
  /** Another fetch (a test double, a proxy-aware one); the global fetch otherwise. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A client whose paths, parameters, bodies and answers are typed by the API's own document:
 * `client.GET('/transactions', { params: { query: { sort: '-amount' } } })` resolves to `{ data }` on
 * success or `{ error }` (the envelope) otherwise, with `response` in both.
 */
export function createFinopsClient({ baseUrl, token, fetch }: FinopsClientOptions) {
  return createClient<paths>({ baseUrl, fetch, headers: { authorization: `Bearer ${token}` } });
}

export type FinopsClient = ReturnType<typeof createFinopsClient>;
