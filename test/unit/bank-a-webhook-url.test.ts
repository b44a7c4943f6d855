import { loadConfig } from '../../shared/config';
import { bankAWebhookUrl } from '../../shared/domain/bank-connections/link';

/**
 * The callback URL set on a Link session is {base_url}/webhook/bank-a in production, and
 * the sandbox uses its own base address with the same path. Read through loadConfig so that the
 * environment variable names are the ones checked.
 */
const urlFor = (env: NodeJS.ProcessEnv) => bankAWebhookUrl(loadConfig(env));

describe('bankAWebhookUrl', () => {
  it('production: the public address, whatever sandbox address is configured', () => {
    expect(urlFor({ BANK_A_ENVIRONMENT: 'production', PUBLIC_URL: 'https://api.finops.example' })).toBe(
      'https://api.finops.example/webhook/bank-a',
    );
    expect(
      urlFor({
        BANK_A_ENVIRONMENT: 'production',
        PUBLIC_URL: 'https://api.finops.example/',
        BANK_A_SANDBOX_WEBHOOK_BASE_URL: 'https://staging.finops.example',
      }),
    ).toBe('https://api.finops.example/webhook/bank-a');
  });

  it('sandbox with BANK_A_SANDBOX_WEBHOOK_BASE_URL: that base address, the same path', () => {
    expect(
      urlFor({
        BANK_A_ENVIRONMENT: 'sandbox',
        PUBLIC_URL: 'https://api.finops.example',
        BANK_A_SANDBOX_WEBHOOK_BASE_URL: 'https://staging.finops.example/',
      }),
    ).toBe('https://staging.finops.example/webhook/bank-a');
    expect(urlFor({ BANK_A_SANDBOX_WEBHOOK_BASE_URL: 'https://hooks.staging.example/finops' })).toBe(
      'https://hooks.staging.example/finops/webhook/bank-a',
    );
  });

  it('sandbox without it: the public address, or this server on its port when there is none', () => {
    expect(urlFor({ BANK_A_ENVIRONMENT: 'sandbox', PUBLIC_URL: 'https://api.finops.example' })).toBe(
      'https://api.finops.example/webhook/bank-a',
    );
    expect(urlFor({ BANK_A_ENVIRONMENT: 'sandbox', PORT: '8080' })).toBe('http://localhost:8080/webhook/bank-a');
  });
});
