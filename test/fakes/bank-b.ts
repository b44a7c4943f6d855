import { createHmac, randomUUID } from 'node:crypto';
import { startHttpFake } from './http-fake';

interface Enrollment {
  enrollmentId: string;
  accessToken: string;
  account: { id: string; name: string; currency: string; ledger: string };
  transactions: Array<{
    id: string;
    account_id: string;
    amount: string;
    date: string;
    description: string;
    status: 'posted' | 'pending';
    type: string;
    details: { counterparty: { name: string } };
  }>;
  disconnected: boolean;
}

/** bank-b (Teller wire format) on loopback: Basic-auth GETs for accounts, balances and paged transactions. */
export async function startBankBFake() {
  const byToken = new Map<string, Enrollment>();
  const fake = await startHttpFake(({ path, headers, query }) => {
    const basic = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1];
    const token = basic ? Buffer.from(basic, 'base64').toString().replace(/:$/, '') : '';
    const e = byToken.get(token);
    if (!e) return { status: 401, body: { error: { code: 'unauthorized', message: 'bad token' } } };
    if (e.disconnected)
      return { status: 404, body: { error: { code: 'enrollment.disconnected.credentials_invalid', message: 'reconnect' } } };
    if (path === '/accounts') {
      return {
        body: [
          {
            id: e.account.id,
            enrollment_id: e.enrollmentId,
            name: e.account.name,
            last_four: '4321',
            type: 'depository',
            subtype: 'checking',
            currency: e.account.currency,
            status: 'open',
            institution: { id: 'chase', name: 'Chase' },
          },
        ],
      };
    }
    if (path === `/accounts/${e.account.id}/balances`)
      return { body: { account_id: e.account.id, ledger: e.account.ledger, available: e.account.ledger } };
    if (path === `/accounts/${e.account.id}/transactions`) {
      const count = Number(query.get('count') ?? 100);
      const fromId = query.get('from_id');
      const start = fromId ? e.transactions.findIndex((t) => t.id === fromId) + 1 : 0;
      return { body: e.transactions.slice(start, start + count) };
    }
    return { status: 404, body: { error: { code: 'not_found', message: path } } };
  });
  return {
    ...fake,
    addEnrollment(opts: { ledger?: string } = {}) {
      const e: Enrollment = {
        enrollmentId: `enr_${randomUUID().slice(0, 12)}`,
        accessToken: `token_${randomUUID()}`,
        account: { id: `acc_${randomUUID().slice(0, 12)}`, name: 'Platinum Checking', currency: 'USD', ledger: opts.ledger ?? '2500.00' },
        transactions: [],
        disconnected: false,
      };
      byToken.set(e.accessToken, e);
      return e;
    },
    addTransactions(e: Enrollment, n: number) {
      for (let i = 0; i < n; i++) {
        const k = e.transactions.length;
        e.transactions.unshift({
          id: `txn_${e.enrollmentId.slice(4)}_${k}`,
          account_id: e.account.id,
          amount: (-(k + 1) * 1.25).toFixed(2),
          date: new Date(Date.UTC(2026, 5, 1) + k * 3_600_000).toISOString().slice(0, 10),
          description: `PURCHASE ${k}`,
          status: 'posted',
          type: 'card_payment',
          details: { counterparty: { name: `Shop ${k % 9}` } },
        });
      }
    },
    disconnect(e: Enrollment) {
      e.disconnected = true;
    },
  };
}

/** Signs a bank-b webhook as the provider does: `t=<unix>,v1=<hex HMAC of "t.body">` for each secret. */
export function signBankB(body: unknown, secrets: string[], t = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  const v1 = secrets.map((s) => `v1=${createHmac('sha256', s).update(`${t}.${raw}`).digest('hex')}`).join(',');
  return { raw, headers: { 'content-type': 'application/json', 'bank-b-signature': `t=${t},${v1}` } };
}
