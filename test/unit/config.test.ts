import { ConfigError, loadConfig } from '../../shared/config';

describe('loadConfig', () => {
  it('gives working defaults for a fresh machine', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(config.AUTH_JWT_SECRET!.length).toBeGreaterThanOrEqual(32);
    expect(config.RECEIPT_DECISION_TIMEOUT).toBe(7 * 86_400_000);
    // A worker's probes are not the API's business: loopback, a port of their own.
    expect(config).toMatchObject({ WORKER_HEALTH_HOST: '127.0.0.1', WORKER_HEALTH_PORT: 3100 });
    expect(config.SHUTDOWN_GRACE).toBe(10_000);
    expect(config.WORKER_SHUTDOWN_GRACE).toBe(30_000);
  });

  it('parses lists, booleans and durations', () => {
    const config = loadConfig({
      ALLOWED_API_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: 'true',
      RECEIPT_DECISION_TIMEOUT: '30m',
    });
    expect(config.ALLOWED_API_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.RECEIPT_DECISION_TIMEOUT).toBe(30 * 60_000);
  });

  it('lists every bad value at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', ENCRYPTION_KEY: 'short', DATABASE_URL: 'not a url', TRUST_PROXY: 'maybe' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const fields = (error as ConfigError).problems.map((p) => p.split(':')[0]).sort();
    expect(fields).toEqual(['DATABASE_URL', 'ENCRYPTION_KEY', 'PORT', 'TRUST_PROXY']);
    expect((error as Error).message).toContain('ENCRYPTION_KEY: must be 64 hexadecimal characters');
  });

  it('refuses development secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /AUTH_JWT_SECRET: is required in production[\s\S]*ENCRYPTION_KEY: is required in production/,
    );
  });

  it('requires the S3 keys when S3_BUCKET is set', () => {
    expect(() => loadConfig({ S3_BUCKET: 'documents' })).toThrow(
      /S3_ACCESS_KEY_ID: is required when S3_BUCKET is set\n.*S3_SECRET_ACCESS_KEY: is required when S3_BUCKET is set/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'documents', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: '' })).toThrow(
      /S3_SECRET_ACCESS_KEY: is required when S3_BUCKET is set/,
    );
    const config = loadConfig({
      S3_BUCKET: 'documents',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
    });
    expect(config).toMatchObject({ S3_BUCKET: 'documents', S3_REGION: 'us-east-1', S3_ENDPOINT: 'http://127.0.0.1:9000' });
    expect(() => loadConfig({ S3_ACCESS_KEY_ID: 'AKIA' })).not.toThrow();
  });

  it('points PUBLIC_URL at the local API in development only, so links in emails work', () => {
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '4100' }).PUBLIC_URL).toBe('http://localhost:4100');
    expect(loadConfig({ PUBLIC_URL: 'https://api.example.com' }).PUBLIC_URL).toBe('https://api.example.com');
    expect(loadConfig({ NODE_ENV: 'test' }).PUBLIC_URL).toBeUndefined();
    const production = {
      NODE_ENV: 'production',
      AUTH_JWT_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
      AUDIT_SIGNING_KEY: 'b'.repeat(64),
      DATABASE_URL: 'postgres://db/x',
    };
    expect(loadConfig(production).PUBLIC_URL).toBeUndefined();
    // The audit trail's checkpoints are signed with a key of the operator's, never the development one.
    const { AUDIT_SIGNING_KEY: _unset, ...withoutAuditKey } = production;
    expect(() => loadConfig(withoutAuditKey)).toThrow(/AUDIT_SIGNING_KEY: is required in production/);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });
});
