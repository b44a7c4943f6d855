import { randomBytes } from 'node:crypto';
import { decrypt, encrypt, keyIdOf, keyringOf } from '../../shared/domain/crypto/encryption';
import { countNotUnderCurrentKey } from '../../shared/domain/crypto/re-encrypt';
import { reEncryptId, type ReEncryptProgress } from '../../shared/temporal/re-encrypt/contract';
import { Stage } from '../../shared/temporal/search-attribute-keys';
import { workerKillTest } from '../support/worker-kill';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

/**
 * Rotating ENCRYPTION_KEY: a worker started with the old key retired starts ReEncrypt by itself,
 * which seals every bank token and webhook secret again under the new key. The worker is killed
 * mid-run; another finishes it, and every value still opens to the very secret it held.
 */
const { tdb, workers, temporal: gatewayFor } = workerKillTest();

const CONNECTIONS = 2_400;
const ENDPOINTS = 600;

it('a worker killed while re-encrypting loses no secret, and the run ends with every value under the new key', async () => {
  const oldKey = randomBytes(32).toString('hex');
  const newKey = randomBytes(32).toString('hex');
  const before = keyringOf({ ENCRYPTION_KEY: oldKey });
  const after = keyringOf({ ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_RETIRED: [oldKey] });
  const { team } = await createTeamAndOwner(tdb.db, 'Acme');
  const { team: other } = await createTeamAndOwner(tdb.db, 'Other');

  const tokens = new Map<string, string>();
  const connections = Array.from({ length: CONNECTIONS }, (_, i) => {
    const token = `access-sandbox-${i}-${randomBytes(6).toString('hex')}`;
    // Disconnected, so the worker's start has no sync schedules to make for them; their tokens are sealed all the same.
    return {
      teamId: i % 2 ? team.id : other.id,
      provider: 'bank-a',
      referenceId: `item-${i}`,
      status: 'disconnected',
      accessTokenEncrypted: encrypt(token, before),
      token,
    };
  });
  for (let i = 0; i < connections.length; i += 500) {
    const rows = await tdb
      .db('bank_connections')
      .insert(connections.slice(i, i + 500).map(({ token: _t, ...row }) => row))
      .returning<{ id: string }[]>('id');
    rows.forEach((r, j) => tokens.set(r.id, connections[i + j].token));
  }
  const secrets = new Map<string, string>();
  const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => ({
    teamId: team.id,
    url: `https://hooks.example.com/${i}`,
    eventTypes: ['transaction.created'],
    secret: `whsec_${randomBytes(24).toString('base64')}`,
  }));
  const endpointRows = await tdb
    .db('webhook_endpoints')
    .insert(endpoints.map(({ secret, ...row }) => ({ ...row, secretEncrypted: encrypt(secret, before) })))
    .returning<{ id: string }[]>('id');
  endpointRows.forEach((r, i) => secrets.set(r.id, endpoints[i].secret));

  const env = {
    TEMPORAL_TASK_QUEUE: uniqueTaskQueue('re-encrypt-kill'),
    ENCRYPTION_KEY: newKey,
    ENCRYPTION_KEYS_RETIRED: oldKey,
    RE_ENCRYPT_BATCH: '40',
  };
  const temporal = gatewayFor(env);

  // The worker starts the run itself, because a key is retired.
  const first = workers.start(env);
  const underNew = async () => {
    const left = await countNotUnderCurrentKey(tdb.db, after);
    return CONNECTIONS + ENDPOINTS - left['bank-connections'] - left['webhook-endpoints'];
  };
  await eventually(async () => (await underNew()) > 0, 60_000, 'the first batches to be sealed again');
  await killHard(first);
  expect(isAlive(first.pid!)).toBe(false);
  const atKill = await underNew();
  expect(atKill).toBeLessThan(CONNECTIONS + ENDPOINTS);

  // A worker with the same keys finds the same run (one per key) and finishes it.
  workers.start(env);
  const handle = (await temporal.client()).workflow.getHandle(reEncryptId(keyIdOf(newKey)));
  const result = (await handle.result()) as ReEncryptProgress;
  expect(result.stage).toBe('completed');
  expect(result.unreadable).toEqual({ 'bank-connections': 0, 'webhook-endpoints': 0 });
  // A batch the killed worker committed but never reported is found already sealed and skipped: never counted twice.
  const counted = result.rewritten['bank-connections'] + result.rewritten['webhook-endpoints'];
  expect(counted).toBeLessThanOrEqual(CONNECTIONS + ENDPOINTS);
  expect(counted).toBeGreaterThanOrEqual(CONNECTIONS + ENDPOINTS - atKill - 40);

  // Every value is under the new key and opens to its own secret, with the new key alone.
  expect(await countNotUnderCurrentKey(tdb.db, after)).toEqual({ 'bank-connections': 0, 'webhook-endpoints': 0 });
  const onlyNew = keyringOf({ ENCRYPTION_KEY: newKey });
  const stored = await tdb.db('bank_connections').select<{ id: string; accessTokenEncrypted: string }[]>('id', 'accessTokenEncrypted');
  expect(stored).toHaveLength(CONNECTIONS);
  for (const row of stored) expect(decrypt(row.accessTokenEncrypted, onlyNew)).toBe(tokens.get(row.id));
  const storedSecrets = await tdb.db('webhook_endpoints').select<{ id: string; secretEncrypted: string }[]>('id', 'secretEncrypted');
  for (const row of storedSecrets) expect(decrypt(row.secretEncrypted, onlyNew)).toBe(secrets.get(row.id));
  const description = await handle.describe();
  expect(description.typedSearchAttributes.get(Stage)).toBe('completed');
}, 180_000);
