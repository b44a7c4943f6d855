import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../shared/config';
import { createTemporalGateway } from '../../shared/temporal/client';
import { describeTemporalConnection, temporalConnectionOptions, temporalGatewayOptions } from '../../shared/temporal/connection-options';

const CERT = '-----BEGIN CERTIFICATE-----\nY2VydA==\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\na2V5\n-----END PRIVATE KEY-----\n';
const CA = '-----BEGIN CERTIFICATE-----\nY2E=\n-----END CERTIFICATE-----\n';
const API_KEY = 'tcld-secret-api-key-0123456789';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('Temporal connection options from the configuration', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
    writeFileSync(path.join(dir, 'client.crt'), CERT);
    writeFileSync(path.join(dir, 'client.key'), KEY);
    writeFileSync(path.join(dir, 'ca.crt'), CA);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('connects in plaintext with nothing set, as the local dev server expects', () => {
    const options = temporalConnectionOptions(loadConfig({ TEMPORAL_ADDRESS: '10.0.0.5:7233' }));
    expect(options).toEqual({ address: '10.0.0.5:7233' });
    expect(describeTemporalConnection(options)).toEqual({ address: '10.0.0.5:7233', tls: 'off', apiKey: 'unset' });
  });

  it('reads mTLS certificates from files, or takes the PEM text as it is', () => {
    const fromFiles = temporalConnectionOptions(
      loadConfig({
        TEMPORAL_ADDRESS: 'temporal.internal:7233',
        TEMPORAL_TLS_CERT: path.join(dir, 'client.crt'),
        TEMPORAL_TLS_KEY: path.join(dir, 'client.key'),
        TEMPORAL_TLS_CA: path.join(dir, 'ca.crt'),
        TEMPORAL_TLS_SERVER_NAME: 'temporal.example',
      }),
    );
    const fromPem = temporalConnectionOptions(
      loadConfig({
        TEMPORAL_ADDRESS: 'temporal.internal:7233',
        TEMPORAL_TLS_CERT: CERT,
        TEMPORAL_TLS_KEY: KEY,
        TEMPORAL_TLS_CA: CA,
        TEMPORAL_TLS_SERVER_NAME: 'temporal.example',
      }),
    );
    for (const options of [fromFiles, fromPem]) {
      expect(options.address).toBe('temporal.internal:7233');
      expect(options.apiKey).toBeUndefined();
      expect(options.tls?.serverNameOverride).toBe('temporal.example');
      expect(Buffer.from(options.tls!.serverRootCACertificate!).toString()).toBe(CA);
      expect(Buffer.from(options.tls!.clientCertPair!.crt).toString()).toBe(CERT);
      expect(Buffer.from(options.tls!.clientCertPair!.key).toString()).toBe(KEY);
      expect(describeTemporalConnection(options).tls).toBe('mtls');
    }
  });

  it('turns TLS on for a server CA alone, or for TEMPORAL_TLS=true alone (the system trusts the server)', () => {
    expect(temporalConnectionOptions(loadConfig({ TEMPORAL_TLS_CA: CA })).tls).toEqual({ serverRootCACertificate: Buffer.from(CA) });
    expect(temporalConnectionOptions(loadConfig({ TEMPORAL_TLS: 'true' })).tls).toEqual({});
    expect(temporalConnectionOptions(loadConfig({ TEMPORAL_TLS: 'false' })).tls).toBeUndefined();
  });

  it('sends an API key over TLS, and the gateway shows neither key nor certificate', () => {
    const config = loadConfig({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_NAMESPACE: 'ns.acct', TEMPORAL_API_KEY: API_KEY });
    const options = temporalGatewayOptions(config);
    // The SDK sends apiKey as `authorization: Bearer <key>` (test/integration/temporal-tls.test.ts sees it arrive).
    expect(options).toEqual({ address: 'ns.acct.tmprl.cloud:7233', namespace: 'ns.acct', taskQueue: 'finops', tls: {}, apiKey: API_KEY });
    expect(describeTemporalConnection(options)).toEqual({ address: 'ns.acct.tmprl.cloud:7233', tls: 'tls', apiKey: 'set' });
    const gateway = createTemporalGateway({ ...options, tls: { clientCertPair: { crt: Buffer.from(CERT), key: Buffer.from(KEY) } } });
    expect(gateway.options).toEqual({ address: 'ns.acct.tmprl.cloud:7233', namespace: 'ns.acct', taskQueue: 'finops' });
    expect(JSON.stringify(gateway.options)).not.toContain(API_KEY);
  });

  it('refuses half-configured TLS at start-up, naming what is missing', () => {
    expect(problemsOf({ TEMPORAL_TLS_CERT: CERT })).toEqual([
      'TEMPORAL_TLS_KEY: is required with the other: mTLS needs both the certificate and its key',
    ]);
    expect(problemsOf({ TEMPORAL_TLS_KEY: path.join(dir, 'client.key') })).toEqual([
      'TEMPORAL_TLS_CERT: is required with the other: mTLS needs both the certificate and its key',
    ]);
    expect(problemsOf({ TEMPORAL_TLS_CERT: path.join(dir, 'missing.crt'), TEMPORAL_TLS_KEY: KEY })).toEqual([
      'TEMPORAL_TLS_CERT: must be PEM text (-----BEGIN …) or the path of a readable file',
    ]);
    expect(problemsOf({ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: API_KEY }).join('\n')).toBe(
      'TEMPORAL_API_KEY: needs TLS, which TEMPORAL_TLS=false turns off',
    );
    // A problem report names the variable, never its value.
    expect(problemsOf({ TEMPORAL_TLS: 'maybe', TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS_KEY: KEY }).join('\n')).not.toContain('a2V5');
  });

  it('names a certificate file that vanished after the configuration was read', () => {
    const crt = path.join(dir, 'short-lived.crt');
    writeFileSync(crt, CERT);
    const config = loadConfig({ TEMPORAL_TLS_CERT: crt, TEMPORAL_TLS_KEY: KEY });
    rmSync(crt);
    expect(() => temporalConnectionOptions(config)).toThrow(`TEMPORAL_TLS_CERT: cannot read ${crt}`);
  });
});
