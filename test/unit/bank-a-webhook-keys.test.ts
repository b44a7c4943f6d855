import { BANK_A_KEY_MAX_AGE_MS, createBankAVerifier } from '../../api/webhooks/signatures/bank-a-jwt';
import { createBankAClient } from '../../shared/providers/bank-a';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';

/** bank-a's verification keys as the gateway caches them, against the fake provider's key endpoint. */
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});

const payload = { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: 'item_keys', environment: 'sandbox' };
const keyFetches = () => bankA.calls.filter((c) => c.path === '/webhook_verification_key/get').length;

function verifierWithClock() {
  const clock = { now: Date.now() };
  const verifier = createBankAVerifier(createBankAClient({ baseUrl: bankA.url, clientId: 'client', secret: 'secret' }), {
    now: () => clock.now,
  });
  const verify = async (signed: Promise<{ raw: string; headers: Record<string, string> }>) => {
    const { raw, headers } = await signed;
    return verifier(headers['bank-a-verification'], raw);
  };
  return { clock, verify };
}

describe('bank-a webhook verification keys', () => {
  it('trusts a cached key no longer than the maximum age: one the provider expired meanwhile is refused after it', async () => {
    const { clock, verify } = verifierWithClock();
    const before = keyFetches();
    expect(await verify(bankA.sign(payload))).toBe(true);
    expect(await verify(bankA.sign(payload))).toBe(true);
    expect(keyFetches() - before).toBe(1);

    bankA.expireKey(); // expired at the provider, and still signing: nothing but the key's age makes us ask
    clock.now += BANK_A_KEY_MAX_AGE_MS - 1000;
    expect(await verify(bankA.sign(payload))).toBe(true);
    clock.now += 2000;
    expect(await verify(bankA.sign(payload))).toBe(false);
    expect(keyFetches() - before).toBe(2);
    // Expired stays expired: it is not asked for again.
    clock.now += 2 * BANK_A_KEY_MAX_AGE_MS;
    expect(await verify(bankA.sign(payload))).toBe(false);
    expect(keyFetches() - before).toBe(2);
  });

  it('on an unknown kid fetches it and refreshes the keys it holds as valid; requests arriving together share a fetch', async () => {
    await bankA.rotateKey(); // a valid key again, after the test above expired the last one
    const { verify } = verifierWithClock();
    const before = keyFetches();
    expect(await Promise.all([1, 2, 3].map(() => verify(bankA.sign(payload))))).toEqual([true, true, true]);
    expect(keyFetches() - before).toBe(1);

    const old = await bankA.rotateKey();
    expect(await verify(bankA.sign(payload))).toBe(true);
    expect(keyFetches() - before).toBe(3); // the new key, and the old one again
    expect(await verify(bankA.sign(payload, old))).toBe(false);
    // A kid the provider does not know fails the check (the pipeline answers 401).
    await expect(verify(bankA.sign(payload, { kid: 'no-such-kid' }))).rejects.toThrow(/INVALID_WEBHOOK_VERIFICATION_KEY_ID/);
  });
});
