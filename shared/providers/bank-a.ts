import { z } from 'zod';
import { BankAuthError, BankUnavailableError } from './bank-errors';

/** Item error codes after which the user must reconnect (Plaid's ITEM_ERROR family). */
const AUTH_CODES = new Set([
  'INVALID_PUBLIC_TOKEN',
  'ITEM_LOGIN_REQUIRED',
  'INVALID_ACCESS_TOKEN',
  'ITEM_NOT_FOUND',
  'USER_PERMISSION_REVOKED',
  'ACCESS_NOT_GRANTED',
  'INVALID_CREDENTIALS',
]);

export interface BankAAccount {
  account_id: string;
  name: string;
  official_name?: string | null;
  mask?: string | null;
  type: string;
  subtype?: string | null;
  balances: { available: number | null; current: number | null; limit: number | null; iso_currency_code: string | null };
}

export interface BankATransaction {
  transaction_id: string;
  account_id: string;
  amount: number; // positive = money out (Plaid's convention)
  iso_currency_code: string | null;
  date: string;
  name: string;
  merchant_name?: string | null;
  pending: boolean;
  /** On a booked transaction: the id of the pending one it replaces (bank-a withdraws that one in the same sync). */
  pending_transaction_id?: string | null;
  payment_channel?: string;
  personal_finance_category?: { primary?: string } | null;
}

export interface BankAItem {
  item_id: string;
  institution_id?: string | null;
  institution_name?: string | null;
  /** ISO 8601; only items under a consent regime (EU/UK) have one. */
  consent_expiration_time?: string | null;
}

export interface BankASyncPage {
  added: BankATransaction[];
  modified: BankATransaction[];
  removed: Array<{ transaction_id: string }>;
  next_cursor: string;
  has_more: boolean;
}

/** The fields read from a failure (Plaid's error object); a body we cannot read is reported by its status alone. */
const bankAErrorBody = z
  .object({
    error_type: z.string().nullish(),
    error_code: z.string().nullish(),
    error_message: z.string().nullish(),
    display_message: z.string().nullish(),
  })
  .catch({});

/** bank-a speaks Plaid's API: JSON POSTs with client_id and secret in the body. */
export function createBankAClient(opts: { baseUrl: string; clientId: string; secret: string }) {
  async function call<T>(path: string, body: Record<string, unknown>): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(path, opts.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: opts.clientId, secret: opts.secret, ...body }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new BankUnavailableError('bank-a', `bank-a unreachable: ${(err as Error).message}`);
    }
    const json: unknown = await res.json().catch(() => ({}));
    if (res.ok) return json as T;
    const error = bankAErrorBody.parse(json);
    if (error.error_type === 'ITEM_ERROR' || AUTH_CODES.has(error.error_code ?? '')) {
      // What the person is to read, as the ERROR webhook's effect records it: the two race after a login breaks.
      throw new BankAuthError('bank-a', error.error_code ?? 'ITEM_ERROR', error.display_message ?? error.error_message ?? 'item error');
    }
    throw new BankUnavailableError(
      'bank-a',
      `bank-a ${path} answered ${res.status}: ${error.error_code ?? ''} ${error.error_message ?? ''}`.trim(),
    );
  }

  return {
    exchangePublicToken: (publicToken: string) =>
      call<{ access_token: string; item_id: string }>('/item/public_token/exchange', { public_token: publicToken }),
    getAccounts: (accessToken: string) =>
      call<{ accounts: BankAAccount[]; item: BankAItem }>('/accounts/get', { access_token: accessToken }),
    /**
     * A Link session. With `accessToken` it is update mode: the user repairs that item's login and
     * keeps its access token. The webhook is where bank-a sends this item's events from now on.
     */
    createLinkToken: (opts: { clientUserId: string; webhook: string; accessToken?: string }) =>
      call<{ link_token: string; expiration: string }>('/link/token/create', {
        client_name: 'Finops',
        language: 'en',
        country_codes: ['US', 'GB', 'DE', 'FR', 'NL'],
        user: { client_user_id: opts.clientUserId },
        webhook: opts.webhook,
        ...(opts.accessToken ? { access_token: opts.accessToken } : { products: ['transactions'] }),
      }),
    transactionsSync: (accessToken: string, cursor: string | null, count = 500) =>
      call<BankASyncPage>('/transactions/sync', { access_token: accessToken, ...(cursor ? { cursor } : {}), count }),
    getVerificationKey: (kid: string) =>
      call<{ key: Record<string, unknown> & { kid: string; expired_at: number | null } }>('/webhook_verification_key/get', { key_id: kid }),
  };
}

export type BankAClient = ReturnType<typeof createBankAClient>;
