import { createHmac } from 'node:crypto';
import { verifyTimestampedHmac } from '../../api/webhooks/signatures/hmac-timestamped';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const t = String(NOW / 1000);
const body = '{"id":"evt_1","type":"webhook.test"}';
const sign = (secret: string, raw = body, at = t) => createHmac('sha256', secret).update(`${at}.${raw}`).digest('hex');
const verify = (header: string | undefined, secrets = ['whsec_current'], raw = body) =>
  verifyTimestampedHmac(header, raw, secrets, 180, NOW);

describe('t=…,v1=… HMAC signatures (bank-b, payments)', () => {
  it('accepts the signature of the body under a configured secret', () => {
    expect(verify(`t=${t},v1=${sign('whsec_current')}`)).toBe(true);
  });

  it('accepts any listed signature under any configured secret (rotation)', () => {
    const header = `t=${t},v1=${sign('whsec_old')},v1=${sign('whsec_next')}`;
    expect(verify(header, ['whsec_current', 'whsec_next'])).toBe(true);
  });

  it('refuses a changed body, another secret, or a signature over another timestamp', () => {
    expect(verify(`t=${t},v1=${sign('whsec_current')}`, ['whsec_current'], `${body} `)).toBe(false);
    expect(verify(`t=${t},v1=${sign('whsec_other')}`)).toBe(false);
    expect(verify(`t=${t},v1=${sign('whsec_current', body, String(NOW / 1000 - 1))}`)).toBe(false);
  });

  it('refuses a timestamp outside the tolerance, either way', () => {
    for (const at of [String(NOW / 1000 - 181), String(NOW / 1000 + 181)]) {
      expect(verify(`t=${at},v1=${sign('whsec_current', body, at)}`)).toBe(false);
    }
  });

  it('refuses signatures that only resemble the right one', () => {
    const good = sign('whsec_current');
    const flipped = `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`;
    for (const v1 of [flipped, good.slice(0, -2), `${good}00`, `${good.slice(0, -2)}zz`, `${good.slice(0, -1)}g`, 'z'.repeat(64), '']) {
      expect(verify(`t=${t},v1=${v1}`)).toBe(false);
    }
  });

  it('refuses a missing or malformed header and an empty list of secrets', () => {
    for (const header of [undefined, '', `v1=${sign('whsec_current')}`, `t=${t}`, `t=abc,v1=${sign('whsec_current')}`]) {
      expect(verify(header)).toBe(false);
    }
    expect(verify(`t=${t},v1=${sign('whsec_current')}`, [])).toBe(false);
  });
});
