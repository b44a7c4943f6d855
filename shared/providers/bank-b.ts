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

/** bank-b speaks Teller's API: GETs with HTTP Basic (access token as user name, empty password). */
export function createBankBClient(opts: { baseUrl: string }) {
  async function get<T>(accessToken: string, path: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(path, opts.baseUrl), {
        headers: { authorization: `Basic ${Buffer.from(`${accessToken}:`).toString('base64')}` },
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
    listAccounts: (accessToken: string) => get<BankBAccount[]>(accessToken, '/accounts'),
    /** One page, newest first; pass the last id as `fromId` for the next (older) page. */
    listTransactions: (accessToken: string, accountId: string, fromId?: string, count = 500) =>
      get<BankBTransaction[]>(
        accessToken,
        `/accounts/${encodeURIComponent(accountId)}/transactions?count=${count}${fromId ? `&from_id=${encodeURIComponent(fromId)}` : ''}`,
      ),
    getBalances: (accessToken: string, accountId: string) =>
      get<{ ledger: string | null; available: string | null }>(accessToken, `/accounts/${encodeURIComponent(accountId)}/balances`),
  };
}

export type BankBClient = ReturnType<typeof createBankBClient>;
