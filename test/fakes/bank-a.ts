import { createHash, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { startHttpFake } from './http-fake';

export interface FakeTransaction {
  transaction_id: string;
  account_id: string;
  amount: number;
  iso_currency_code: string;
  date: string;
  name: string;
  merchant_name: string | null;
  pending: boolean;
  /** On a booked transaction: the pending one it replaces. */
  pending_transaction_id?: string | null;
  payment_channel: string;
  personal_finance_category: { primary: string } | null;
}

interface Item {
  itemId: string;
  accessToken: string;
  accounts: Array<{ account_id: string; name: string; currency: string; balance: number }>;
  /** The change log /transactions/sync pages through; a cursor is a position in it. */
  log: Array<{ kind: 'added' | 'modified' | 'removed'; tx: FakeTransaction }>;
  loginRequired: boolean;
  /** ISO 8601, as /accounts/get reports it in `item.consent_expiration_time`. */
  consentExpiresAt: string | null;
  /** What the last Link session set as the item's webhook. */
  webhook: string | null;
}

/** A Link session: create mode makes a new item when the user finishes; update mode repairs one. */
interface LinkSession {
  linkToken: string;
  webhook: string;
  clientUserId: string;
  item: Item | null;
  expiration: string;
}

/**
 * bank-a (Plaid wire format) on loopback: public token exchange, /accounts/get, paged
 * /transactions/sync with cursors, webhook verification keys, and a signer for webhooks exactly as
 * the provider signs them (ES256 JWT in `bank-a-Verification`).
 */
export async function startBankAFake() {
  const items = new Map<string, Item>();
  const byToken = new Map<string, Item>();
  const publicTokens = new Map<string, Item>();
  const linkTokens = new Map<string, LinkSession>();
  /** A consent expiry every item linked from now on gets (tests of the consent timer). */
  let nextConsentExpiresAt: string | null = null;
  const newKey = async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const kid = randomUUID();
    const jwk = {
      ...(await exportJWK(publicKey)),
      alg: 'ES256',
      use: 'sig',
      kid,
      created_at: Math.floor(Date.now() / 1000),
      expired_at: null as number | null,
    };
    return { kid, privateKey, jwk };
  };
  /** Every key it ever signed with, by kid, as the key endpoint serves them; webhooks are signed with `current`. */
  const keys = new Map<string, Awaited<ReturnType<typeof newKey>>>();
  let current = await newKey();
  keys.set(current.kid, current);

  let syncDelayMs = 0;
  /** Requests answered, by path. */
  const served = new Map<string, number>();
  const fake = await startHttpFake(async ({ path, body }) => {
    served.set(path, (served.get(path) ?? 0) + 1);
    if (path === '/webhook_verification_key/get') {
      const key = keys.get(body?.key_id);
      return key
        ? { body: { key: key.jwk, request_id: 'req' } }
        : { status: 400, body: { error_type: 'INVALID_INPUT', error_code: 'INVALID_WEBHOOK_VERIFICATION_KEY_ID' } };
    }
    if (path === '/item/public_token/exchange') {
      const item = publicTokens.get(body?.public_token);
      if (!item)
        return {
          status: 400,
          body: { error_type: 'INVALID_INPUT', error_code: 'INVALID_PUBLIC_TOKEN', error_message: 'invalid public token' },
        };
      return { body: { access_token: item.accessToken, item_id: item.itemId, request_id: 'req' } };
    }
    if (path === '/link/token/create') {
      const missing = ['client_name', 'user', 'language', 'country_codes'].filter((k) => body?.[k] === undefined);
      if (missing.length || typeof body?.user?.client_user_id !== 'string')
        return { status: 400, body: { error_type: 'INVALID_REQUEST', error_code: 'MISSING_FIELDS', error_message: missing.join(', ') } };
      let target: Item | null = null;
      if (body.access_token !== undefined) {
        target = byToken.get(body.access_token) ?? null;
        if (!target)
          return { status: 400, body: { error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN', error_message: 'unknown token' } };
      } else if (!Array.isArray(body.products) || !body.products.length) {
        return { status: 400, body: { error_type: 'INVALID_REQUEST', error_code: 'MISSING_FIELDS', error_message: 'products' } };
      }
      const session: LinkSession = {
        linkToken: `link-sandbox-${randomUUID()}`,
        webhook: body.webhook,
        clientUserId: body.user.client_user_id,
        item: target,
        expiration: new Date(Date.now() + 4 * 3_600_000).toISOString(),
      };
      linkTokens.set(session.linkToken, session);
      return { body: { link_token: session.linkToken, expiration: session.expiration, request_id: 'req' } };
    }
    const item = byToken.get(body?.access_token);
    if (!item)
      return { status: 400, body: { error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN', error_message: 'unknown token' } };
    if (item.loginRequired)
      return {
        status: 400,
        body: {
          error_type: 'ITEM_ERROR',
          error_code: 'ITEM_LOGIN_REQUIRED',
          error_message: 'login required',
          display_message: 'Log in again',
        },
      };
    if (path === '/accounts/get') {
      return {
        body: {
          accounts: item.accounts.map((a) => ({
            account_id: a.account_id,
            name: a.name,
            mask: '0000',
            type: 'depository',
            subtype: 'checking',
            balances: { available: a.balance, current: a.balance, limit: null, iso_currency_code: a.currency },
          })),
          item: {
            item_id: item.itemId,
            institution_id: 'ins_1',
            institution_name: 'First Platypus Bank',
            webhook: item.webhook,
            consent_expiration_time: item.consentExpiresAt,
          },
        },
      };
    }
    if (path === '/transactions/sync') {
      if (syncDelayMs) await new Promise((r) => setTimeout(r, syncDelayMs));
      const start = body.cursor ? Number(String(body.cursor).slice(1)) : 0;
      const count = Math.min(body.count ?? 100, 500);
      const slice = item.log.slice(start, start + count);
      const end = start + slice.length;
      return {
        body: {
          added: slice.filter((e) => e.kind === 'added').map((e) => e.tx),
          modified: slice.filter((e) => e.kind === 'modified').map((e) => e.tx),
          removed: slice
            .filter((e) => e.kind === 'removed')
            .map((e) => ({ transaction_id: e.tx.transaction_id, account_id: e.tx.account_id })),
          next_cursor: `c${end}`,
          has_more: end < item.log.length,
          transactions_update_status: 'HISTORICAL_UPDATE_COMPLETE',
          accounts: [],
        },
      };
    }
    return { status: 404, body: { error_code: 'NOT_FOUND' } };
  });

  return {
    ...fake,
    /** The id of the key webhooks are signed with now. */
    get kid() {
      return current.kid;
    },
    /** How many requests to `path` it has answered (`/accounts/get`, `/transactions/sync`, …). */
    requestsTo(path: string): number {
      return served.get(path) ?? 0;
    },
    /** An account opened at the bank after the item was linked; returns its account id. */
    openAccount(itemId: string, name = 'Savings'): string {
      const item = items.get(itemId)!;
      const account = { account_id: `acc_${randomUUID().slice(0, 8)}`, name, currency: item.accounts[0].currency, balance: 0 };
      item.accounts.push(account);
      return account.account_id;
    },
    /** A linked item with one account; returns the public token to connect it with. */
    addItem(opts: { accountName?: string; currency?: string; balance?: number } = {}) {
      const item: Item = {
        itemId: `item_${randomUUID()}`,
        accessToken: `access-sandbox-${randomUUID()}`,
        accounts: [
          {
            account_id: `acc_${randomUUID().slice(0, 8)}`,
            name: opts.accountName ?? 'Checking',
            currency: opts.currency ?? 'EUR',
            balance: opts.balance ?? 1000,
          },
        ],
        log: [],
        loginRequired: false,
        consentExpiresAt: nextConsentExpiresAt,
        webhook: null,
      };
      items.set(item.itemId, item);
      byToken.set(item.accessToken, item);
      const publicToken = `public-sandbox-${randomUUID()}`;
      publicTokens.set(publicToken, item);
      return { itemId: item.itemId, publicToken, accessToken: item.accessToken, accountId: item.accounts[0].account_id };
    },
    /** `n` new transactions among 50 merchants, `Merchant 0`–`Merchant 49` unless `merchantOf` names them. */
    addTransactions(
      itemId: string,
      n: number,
      startIndex = 0,
      merchantOf: (i: number) => string = (i) => `Merchant ${i % 50}`,
    ): FakeTransaction[] {
      const item = items.get(itemId)!;
      const txs = Array.from({ length: n }, (_, k) => {
        const i = startIndex + k;
        return {
          transaction_id: `tx_${itemId.slice(5, 13)}_${i}`,
          account_id: item.accounts[0].account_id,
          amount: Math.round((10 + (i % 500) + (i % 7) / 10) * 100) / 100,
          iso_currency_code: item.accounts[0].currency,
          date: new Date(Date.UTC(2026, 5, 30) - (i % 365) * 86_400_000).toISOString().slice(0, 10),
          name: merchantOf(i).toUpperCase(),
          merchant_name: merchantOf(i),
          pending: false,
          payment_channel: 'in store',
          personal_finance_category: { primary: i % 2 ? 'FOOD_AND_DRINK' : 'GENERAL_MERCHANDISE' },
        };
      });
      for (const tx of txs) item.log.push({ kind: 'added', tx });
      return txs;
    },
    /** Transactions as given (pending ones, or booked ones with `pending_transaction_id`), added to the change log. */
    add(itemId: string, txs: readonly FakeTransaction[]) {
      for (const tx of txs) items.get(itemId)!.log.push({ kind: 'added', tx });
    },
    /**
     * The bank books pending transactions as bank-a does: under new ids, each naming the pending one
     * it replaces, which is withdrawn in the same change; `change` alters what the booking says.
     */
    book(itemId: string, pending: readonly FakeTransaction[], change: (tx: FakeTransaction) => Partial<FakeTransaction> = () => ({})) {
      const item = items.get(itemId)!;
      return pending.map((p) => {
        const booked: FakeTransaction = {
          ...p,
          transaction_id: `${p.transaction_id}_booked`,
          pending: false,
          pending_transaction_id: p.transaction_id,
          ...change(p),
        };
        item.log.push({ kind: 'removed', tx: p }, { kind: 'added', tx: booked });
        return booked;
      });
    },
    /** The account id of an item (its only account). */
    accountOf(itemId: string) {
      return items.get(itemId)!.accounts[0].account_id;
    },
    modify(itemId: string, tx: FakeTransaction) {
      items.get(itemId)!.log.push({ kind: 'modified', tx });
    },
    remove(itemId: string, tx: FakeTransaction) {
      items.get(itemId)!.log.push({ kind: 'removed', tx });
    },
    /**
     * The user finishes Link in the browser. Create mode: a new item, and the public token Link hands
     * the client. Update mode: the item's login works again (its access token stays); no public token.
     */
    completeLink(linkToken: string): { publicToken: string | null; itemId: string } {
      const session = linkTokens.get(linkToken);
      if (!session) throw new Error(`unknown link token ${linkToken}`);
      linkTokens.delete(linkToken);
      if (session.item) {
        session.item.loginRequired = false;
        session.item.webhook = session.webhook;
        return { publicToken: null, itemId: session.item.itemId };
      }
      const linked = this.addItem();
      items.get(linked.itemId)!.webhook = session.webhook;
      return { publicToken: linked.publicToken, itemId: linked.itemId };
    },
    /** The Link sessions asked for, as bank-a saw them (webhook URL, user, update target). */
    linkSessions: () =>
      [...linkTokens.values()].map((l) => ({ webhook: l.webhook, clientUserId: l.clientUserId, itemId: l.item?.itemId ?? null })),
    /** Items linked from now on report this consent expiry (null: none). */
    setNextConsentExpiry(iso: string | null) {
      nextConsentExpiresAt = iso;
    },
    setConsentExpiry(itemId: string, iso: string | null) {
      items.get(itemId)!.consentExpiresAt = iso;
    },
    requireLogin(itemId: string, on = true) {
      items.get(itemId)!.loginRequired = on;
    },
    /** Slows every /transactions/sync page down (to catch a sync in the middle). */
    slowSync(ms: number) {
      syncDelayMs = ms;
    },
    /** The current key is expired (`expired_at` set) and still signs, as a rotation not yet done. */
    expireKey() {
      current.jwk.expired_at = Math.floor(Date.now() / 1000);
    },
    /** A rotation: webhooks are signed with a new key from now on and the old one is expired. Returns the old one, to sign with. */
    async rotateKey(): Promise<{ kid: string; key: KeyLike }> {
      const old = current;
      old.jwk.expired_at = Math.floor(Date.now() / 1000);
      current = await newKey();
      keys.set(current.kid, current);
      return { kid: old.kid, key: old.privateKey };
    },
    /** The webhook bank-a sends when an item has transactions to fetch, signed. */
    signUpdatesAvailable(itemId: string) {
      return this.sign({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: itemId, environment: 'sandbox' });
    },
    /** Signs a webhook body as bank-a does: pretty-printed JSON, ES256 JWT over its SHA-256. */
    async sign(payload: unknown, opts: { iatOffsetS?: number; key?: KeyLike; kid?: string; bodyOverride?: string } = {}) {
      const raw = JSON.stringify(payload, null, 2);
      const hash = createHash('sha256')
        .update(opts.bodyOverride ?? raw)
        .digest('hex');
      const token = await new SignJWT({ request_body_sha256: hash })
        .setProtectedHeader({ alg: 'ES256', kid: opts.kid ?? current.kid, typ: 'JWT' })
        .setIssuedAt(Math.floor(Date.now() / 1000) + (opts.iatOffsetS ?? 0))
        .sign(opts.key ?? current.privateKey);
      return { raw, headers: { 'content-type': 'application/json', 'bank-a-verification': token } };
    },
  };
}

export type BankAFake = Awaited<ReturnType<typeof startBankAFake>>;
