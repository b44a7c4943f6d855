import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { webhooks } from '../../api/webhooks';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { startBankBFake, type BankBFake } from '../fakes/bank-b';
import { dbFingerprint } from '../support/db-fingerprint';
import { restDoors, trpcProcedures } from '../support/doors';
import { clientRegistrationRequest } from '../../shared/domain/oauth/registration-schema';
import { consentForm, revokeForm, tokenRequest } from '../../shared/domain/oauth/schema';
import { hostileBody, tooDeepText, unreadableJsonBody, withUnknownKey } from '../support/fuzz';
import { withTwoTeams } from '../support/two-teams';
import { signedDelivery, signedText, WEBHOOK_SECRETS } from '../support/webhook-signers';

/**
 * Property-based fuzzing of every REST write route, every tRPC mutation, every webhook (signed
 * correctly, so the fuzz reaches the parser and what is behind it) and the form endpoints (OAuth, the
 * browser session). Each input is plausible but wrong in one way, or wholly hostile. The properties:
 * never a 5xx, and a rejected request writes nothing (every table's rows are the same before and
 * after). Three classes must moreover be a 400 wherever they are sent: JSON nested deeper than the
 * gateway takes, an unknown key at any depth of an input, and a JSON body a form endpoint cannot
 * read. FUZZ_RUNS sets the inputs per operation here; `bench/fuzz.ts` runs the same properties long.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

let bankA: BankAFake;
let bankB: BankBFake;
// Before the gateway starts: it fetches bank-a's verification keys from the fake; linking a bank asks the banks.
beforeAll(async () => {
  bankA = await startBankAFake();
  bankB = await startBankBFake();
});
afterAll(async () => {
  await bankA?.close();
  await bankB?.close();
});
const env = {
  ...WEBHOOK_SECRETS,
  RATE_LIMIT_PER_MINUTE: '1000000',
  AUTH_FAILURES_PER_MINUTE: '1000000',
  OAUTH_REGISTRATIONS_PER_HOUR: '1000000',
};
const { ctx } = withTwoTeams({ env: () => ({ ...env, BANK_A_API_URL: bankA.url, BANK_B_API_URL: bankB.url }) });

/** Real ids of the caller's team by the first path segment, so the fuzz reaches handlers, not only 404s. */
const realIds = new Map<string, string>();
beforeAll(async () => {
  const post = async (path: string, body: unknown) =>
    (
      await (
        await ctx.api.fetch(path, {
          method: 'POST',
          token: ctx.acme.sessionToken,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()
    ).data as { id: string };
  realIds.set('transactions', (await post('/transactions', { date: '2026-01-05', name: 'Seed', amount: -10, currency: 'EUR' })).id);
  realIds.set('tags', (await post('/tags', { name: 'seed' })).id);
  realIds.set('categories', (await post('/categories', { name: 'Seed' })).id);
  const customer = await post('/customers', { name: 'Seed customer' });
  realIds.set('customers', customer.id);
  realIds.set(
    'invoices',
    (await post('/invoices', { currency: 'EUR', customerId: customer.id, lineItems: [{ name: 'Work', quantity: 1, price: 100 }] })).id,
  );
  const project = await post('/tracker-projects', { name: 'Seed project' });
  realIds.set('tracker-projects', project.id);
  realIds.set(
    'tracker-entries',
    (await post('/tracker-entries', { projectId: project.id, start: '2026-01-05T09:00:00Z', stop: '2026-01-05T10:00:00Z' })).id,
  );
});

/** A path with each parameter filled by a real id of its resource or by a fresh one. */
const pathFor = (template: string) =>
  fc.boolean().map((real) => template.replace(/:(\w+)/g, () => (real && realIds.get(template.split('/')[1])) || randomUUID()));
const found: string[] = [];
let sent = 0;
/** What each kind of credential was answered: the session's (REST, tRPC) and the providers' signatures (webhooks). */
const answered = { session: [] as number[], signature: [] as number[], expected: [] as number[] };

/** Sends one input and checks the two properties; the request is described in any failure. */
async function probe(credential: keyof typeof answered, describeRequest: string, send: () => Promise<Response>): Promise<void> {
  const before = await dbFingerprint(ctx.tdb.db);
  sent += 1;
  const res = await send();
  answered[credential].push(res.status);
  const text = await res.text();
  if (res.status >= 500) {
    found.push(`${describeRequest} → ${res.status} ${text.slice(0, 300)}`);
    throw new Error(`${res.status} for ${describeRequest}: ${text.slice(0, 300)}`);
  }
  if (res.status >= 400) {
    const after = await dbFingerprint(ctx.tdb.db);
    const changed = Object.keys(before).filter((t) => before[t] !== after[t]);
    if (changed.length) throw new Error(`rejected with ${res.status} yet wrote to ${changed.join(', ')}: ${describeRequest}`);
  }
}

const short = (v: unknown) => JSON.stringify(v)?.slice(0, 200) ?? String(v);

/**
 * As probe, and the answer must also be `status` (400 for what every door must refuse as a bad
 * request): a 401 fails it too, so these answers are kept apart from the credentials' counts.
 */
const probeExpecting = (describeRequest: string, send: () => Promise<Response>, status = 400) =>
  probe('expected', describeRequest, async () => {
    const res = await send();
    if (res.status < 500 && res.status !== status)
      throw new Error(`${res.status}, not ${status}, for ${describeRequest}: ${(await res.text()).slice(0, 300)}`);
    return res;
  });

describe('fuzzing every write operation', () => {
  afterAll(() => {
    // One line bench/fuzz.ts reads back.
    console.log(`FUZZ-RESULT ${JSON.stringify({ runs: RUNS, seed: SEED, requests: sent, fiveHundreds: found.length })}`);
    if (found.length) console.log(`fuzz found ${found.length} 5xx:\n${found.join('\n')}`);
  });

  it.each(
    restDoors()
      .filter((r) => r.body)
      .map((r) => [`${r.method} ${r.path}`, r] as const),
  )('REST %s', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(hostileBody(route.body!), pathFor(route.path), async (body, path) => {
        await probe('session', `${route.method} ${path} ${short(body)}`, () =>
          ctx.api.fetch(path, {
            method: route.method,
            token: ctx.acme.sessionToken,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        );
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  const mutations = trpcProcedures().filter(([, p]) => p._def.type === 'mutation' && p._def.inputs[0]);

  it.each(mutations.map(([path, p]) => [path, p._def.inputs[0]] as const))('tRPC %s', async (path, input) => {
    await fc.assert(
      fc.asyncProperty(hostileBody(input), async (body) => {
        await probe('session', `tRPC ${path} ${short(body)}`, () =>
          ctx.api.fetch(`/trpc/${path}`, {
            method: 'POST',
            token: ctx.acme.sessionToken,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        );
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  const jsonAs = (method: string, body: string) => ({
    method,
    token: ctx.acme.sessionToken,
    headers: { 'content-type': 'application/json' },
    body,
  });

  // The classes every door must answer with 400: JSON nested too deep, and an unknown key at any depth.
  it.each(
    restDoors()
      .filter((r) => r.body)
      .map((r) => [`${r.method} ${r.path}`, r] as const),
  )('REST %s: too deep, unknown keys', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(tooDeepText(route.body!), withUnknownKey(route.body!), pathFor(route.path), async (deep, unknown, path) => {
        await probeExpecting(`${route.method} ${path} ${deep.slice(0, 100)}`, () => ctx.api.fetch(path, jsonAs(route.method, deep)));
        await probeExpecting(`${route.method} ${path} ${short(unknown)}`, () =>
          ctx.api.fetch(path, jsonAs(route.method, JSON.stringify(unknown))),
        );
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it.each(mutations.map(([path, p]) => [path, p._def.inputs[0]] as const))('tRPC %s: too deep, unknown keys', async (path, input) => {
    await fc.assert(
      fc.asyncProperty(tooDeepText(input), withUnknownKey(input), async (deep, unknown) => {
        await probeExpecting(`tRPC ${path} ${deep.slice(0, 100)}`, () => ctx.api.fetch(`/trpc/${path}`, jsonAs('POST', deep)));
        await probeExpecting(`tRPC ${path} ${short(unknown)}`, () =>
          ctx.api.fetch(`/trpc/${path}`, jsonAs('POST', JSON.stringify(unknown))),
        );
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it('webhooks: a signed body nested too deep', async () => {
    for (const webhook of webhooks(ctx.api.deps)) {
      await fc.assert(
        fc.asyncProperty(tooDeepText(webhook.schema), async (raw) => {
          const delivery = await signedText(webhook.provider, raw, bankA);
          await probeExpecting(`webhook ${webhook.provider} ${raw.slice(0, 100)}`, () =>
            ctx.api.fetch(`/webhook/${webhook.provider}`, { method: 'POST', headers: delivery.headers, body: delivery.raw }),
          );
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });

  it.each([
    ['/oauth/token', tokenRequest],
    ['/oauth/revoke', revokeForm],
    ['/oauth/authorize', consentForm],
    ['/oauth/register', clientRegistrationRequest],
  ] as const)('%s: JSON it cannot read is 400, any other JSON never 5xx', async (path, schema) => {
    const post = (body: string) => ctx.api.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await fc.assert(
      fc.asyncProperty(unreadableJsonBody, hostileBody(schema), async (unreadable, hostile) => {
        await probeExpecting(`${path} ${unreadable.slice(0, 100)}`, () => post(unreadable));
        await probe('expected', `${path} ${short(hostile)}`, () => post(JSON.stringify(hostile)));
      }),
      { numRuns: RUNS * 3, seed: SEED, endOnFailure: true },
    );
  });

  it('/auth/session: reads no body, so any JSON with a session token starts the session', async () => {
    await fc.assert(
      fc.asyncProperty(unreadableJsonBody, async (body) => {
        await probeExpecting(`/auth/session ${body.slice(0, 100)}`, () => ctx.api.fetch('/auth/session', jsonAs('POST', body)), 200);
      }),
      { numRuns: RUNS * 3, seed: SEED, endOnFailure: true },
    );
  });

  it('webhooks, signed as each provider signs them', async () => {
    for (const webhook of webhooks(ctx.api.deps)) {
      await fc.assert(
        fc.asyncProperty(hostileBody(webhook.schema), async (payload) => {
          const delivery = await signedDelivery(webhook.provider, payload, bankA);
          await probe('signature', `webhook ${webhook.provider} ${short(payload)}`, () =>
            ctx.api.fetch(`/webhook/${webhook.provider}`, { method: 'POST', headers: delivery.headers, body: delivery.raw }),
          );
        }),
        { numRuns: RUNS * 3, seed: SEED, endOnFailure: true },
      );
    }
  });

  // Last: it reads what the tests above were answered. With a refused session or signature every
  // request would be a 401, and "no 5xx, nothing written" would hold for nothing. Fuzzed bodies
  // vary, the credential does not, and every door checks the credential before it reads a body: so
  // no answer may be a 401, while a 400 is as much past the check as a 2xx (a seed may draw no
  // valid body at all).
  it.each(['session', 'signature'] as const)('got past the %s check: no input was refused for its credential', (credential) => {
    const statuses = answered[credential];
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 401)).toEqual([]);
  });
});
