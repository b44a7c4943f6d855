import type { Config } from '../config';
import { z } from 'zod';
import { BankAuthError, BankUnavailableError } from './bank-errors';

export interface BankBAccount {
  id: string;
  enrollment_id: string;
  name: string;
  last_four?: string;
  type: 'depository' | 'credit';
  subtype?: string;
  currency: string;
  status: 'open' | 'closed';
  institution?: { id: string; name: string };
}

export interface BankBTransaction {
  id: string;
  account_id: string;
  amount: string; // signed decimal string
  date: string;
  description: string;
  status: 'posted' | 'pending';
  type?: string;
  running_balance?: string | null;
  details?: { category?: string | null; counterparty?: { name?: string | null } | null };
}

/** The fields read from a failure (Teller's error object); a body we cannot read is reported by its status alone. */
const bankBErrorBody = z.object({ error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish() }).catch({});

/** A bank-b Connect session: where the user enrolls (or repairs an enrollment), until when. */
export interface BankBConnectSession {
  id: string;
  url: string;
  expires_at: string;
}

/**
 * bank-b speaks Teller's API: HTTP Basic with the access token as user name and an empty password;
 * application-level calls (Connect sessions) authenticate as the application id the same way.
 */
export function createBankBClient(opts: { baseUrl: string; applicationId?: string; environment?: string }) {
  async function request<T>(accessToken: string, path: string, body?: Record<string, unknown>): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(path, opts.baseUrl), {
        method: body ? 'POST' : 'GET',
        headers: {
          authorization: `Basic ${Buffer.from(`${accessToken}:`).toString('base64')}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new BankUnavailableError('bank-b', `bank-b unreachable: ${(err as Error).message}`);
    }
    const json: unknown = await res.json().catch(() => ({}));
    if (res.ok) return json as T;
    const { error } = bankBErrorBody.parse(json);
    const code = error?.code ?? '';
    if (res.status === 401 || res.status === 403 || code.startsWith('enrollment.disconnected')) {
      throw new BankAuthError('bank-b', code || String(res.status), error?.message ?? 'enrollment disconnected');
    }
    throw new BankUnavailableError('bank-b', `bank-b ${path} answered ${res.status}: ${code}`);
  }

  return {
    listAccounts: (accessToken: string) => request<BankBAccount[]>(accessToken, '/accounts'),
    /** One page, newest first; pass the last id as `fromId` for the next (older) page. */
    listTransactions: (accessToken: string, accountId: string, fromId?: string, count = 500) =>
      request<BankBTransaction[]>(
        accessToken,
        `/accounts/${encodeURIComponent(accountId)}/transactions?count=${count}${fromId ? `&from_id=${encodeURIComponent(fromId)}` : ''}`,
      ),
    /** A Connect session for a new enrollment, or (with `enrollmentId`) to repair that one. */
    createConnectSession: (enrollmentId?: string) =>
      request<BankBConnectSession>(opts.applicationId ?? '', '/connect/sessions', {
        environment: opts.environment ?? 'sandbox',
        products: ['transactions'],
        ...(enrollmentId ? { enrollment_id: enrollmentId } : {}),
      }),
    getBalances: (accessToken: string, accountId: string) =>
      request<{ ledger: string | null; available: string | null }>(accessToken, `/accounts/${encodeURIComponent(accountId)}/balances`),
  };
}

export type BankBClient = ReturnType<typeof createBankBClient>;

/** The client as the config describes it (API and worker build it the same way). */
export const bankBClient = (config: Pick<Config, 'BANK_B_API_URL' | 'BANK_B_APPLICATION_ID' | 'BANK_B_ENVIRONMENT'>) =>
  createBankBClient({
    baseUrl: config.BANK_B_API_URL,
    applicationId: config.BANK_B_APPLICATION_ID,
    environment: config.BANK_B_ENVIRONMENT,
  });
