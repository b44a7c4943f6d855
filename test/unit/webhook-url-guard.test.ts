import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postWebhook } from '../../shared/domain/webhook-endpoints/send';
import { isPublicAddress, refusedWebhookUrl } from '../../shared/domain/webhook-endpoints/url-guard';

describe('the webhook SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '203.0.114.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('lets %s through', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses URLs on private hosts, names that resolve to them, other schemes and credentials', async () => {
    expect(await refusedWebhookUrl('http://127.0.0.1:8080/x', false)).toEqual({
      field: 'url',
      message: '127.0.0.1 is not a public address',
    });
    expect(await refusedWebhookUrl('http://[fd00::1]/x', false)).toEqual({ field: 'url', message: 'fd00::1 is not a public address' });
    expect(await refusedWebhookUrl('http://localhost:3000/x', false)).toEqual({
      field: 'url',
      message: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/),
    });
    expect(await refusedWebhookUrl('ftp://example.com/x', false)).toEqual({ field: 'url', message: 'must be an http or https URL' });
    expect(await refusedWebhookUrl('https://user:pw@8.8.8.8/x', false)).toMatchObject({ field: 'url' });
    expect(await refusedWebhookUrl('https://8.8.8.8/hook', false)).toBeNull();
  });

  it('lets private hosts through only with WEBHOOKS_ALLOW_PRIVATE', async () => {
    expect(await refusedWebhookUrl('http://127.0.0.1:8080/x', true)).toBeNull();
  });

  it('checks again at delivery time: nothing is sent to a loopback endpoint, by address or by name', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const request = { headers: {}, body: '{}', timeoutMs: 2000 };
      const byAddress = await postWebhook({ ...request, url: `http://127.0.0.1:${port}/`, allowPrivate: false });
      expect(byAddress).toMatchObject({ statusCode: null, error: expect.stringMatching(/not a public address/) });
      const byName = await postWebhook({ ...request, url: `http://localhost:${port}/`, allowPrivate: false });
      expect(byName).toMatchObject({ statusCode: null, error: expect.stringMatching(/not a public address/) });
      expect(requests).toBe(0);
      // The same request with the flag reaches it.
      expect(await postWebhook({ ...request, url: `http://127.0.0.1:${port}/`, allowPrivate: true })).toMatchObject({
        statusCode: 200,
        responseBody: 'ok',
        error: null,
      });
      expect(requests).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
