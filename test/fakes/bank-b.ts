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

interface ConnectSession {
  id: string;
  applicationId: string;
  environment: string;
  /** Repairing this enrollment; null: a new one. */
  enrollment: Enrollment | null;
  expiresAt: string;
}

/**
 * bank-b (Teller wire format) on loopback: Basic-auth GETs for accounts, balances and paged
 * transactions, and Connect sessions (`POST /connect/sessions`, Basic with the application id).
 */
export async function startBankBFake(opts: { applicationId?: string } = {}) {
  const applicationId = opts.applicationId ?? 'app_dev';
  const byToken = new Map<string, Enrollment>();
  const sessions = new Map<string, ConnectSession>();
  const fake = await startHttpFake(({ method, path, headers, query, body }) => {
    const basic = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1];
    const token = basic ? Buffer.from(basic, 'base64').toString().replace(/:$/, '') : '';
    if (method === 'POST' && path === '/connect/sessions') {
      if (token !== applicationId) return { status: 401, body: { error: { code: 'unauthorized', message: 'unknown application' } } };
      const repairing = body?.enrollment_id ? [...byToken.values()].find((x) => x.enrollmentId === body.enrollment_id) : undefined;
      if (body?.enrollment_id && !repairing)
        return { status: 404, body: { error: { code: 'enrollment.not_found', message: String(body.enrollment_id) } } };
      const session: ConnectSession = {
        id: `cs_${randomUUID().slice(0, 12)}`,
        applicationId: token,
        environment: String(body?.environment ?? 'sandbox'),
        enrollment: repairing ?? null,
        expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      };
      sessions.set(session.id, session);
      return { status: 201, body: { id: session.id, url: `https://connect.bank-b.test/s/${session.id}`, expires_at: session.expiresAt } };
    }
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
    /**
     * The user finishes Connect: a new enrollment, or the repaired one (it works again and gets a new
     * access token, as Teller issues on repair). Returns what Connect hands the client.
     */
    completeSession(sessionId: string): { accessToken: string; enrollmentId: string; enrollment: Enrollment } {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`unknown connect session ${sessionId}`);
      sessions.delete(sessionId);
      const e = session.enrollment ?? this.addEnrollment();
      if (session.enrollment) {
        byToken.delete(e.accessToken);
        e.accessToken = `token_${randomUUID()}`;
        byToken.set(e.accessToken, e);
        e.disconnected = false;
      }
      return { accessToken: e.accessToken, enrollmentId: e.enrollmentId, enrollment: e };
    },
    /** The Connect sessions opened and not completed. */
    openSessions: () => [...sessions.values()].map((x) => ({ ...x, enrollmentId: x.enrollment?.enrollmentId ?? null })),
  };
}

/** Signs a bank-b webhook as the provider does: `t=<unix>,v1=<hex HMAC of "t.body">` for each secret. */
export const signBankB = (body: unknown, secrets: string[], t = Math.floor(Date.now() / 1000)) =>
  signBankBText(JSON.stringify(body), secrets, t);

/** Signs a body given as text, for bodies JSON.stringify cannot write (nested thousands of levels deep). */
export function signBankBText(raw: string, secrets: string[], t = Math.floor(Date.now() / 1000)) {
  const v1 = secrets.map((s) => `v1=${createHmac('sha256', s).update(`${t}.${raw}`).digest('hex')}`).join(',');
  return { raw, headers: { 'content-type': 'application/json', 'bank-b-signature': `t=${t},${v1}` } };
}

export type BankBFake = Awaited<ReturnType<typeof startBankBFake>>;
