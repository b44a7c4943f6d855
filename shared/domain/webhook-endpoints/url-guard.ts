import { lookup, type LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { FieldProblem } from '../../errors';

/**
 * The SSRF guard of webhooks out: a team's URL must never make us call into our own network. Only
 * globally routable unicast addresses pass (ipaddr.js's `unicast` range); private, loopback,
 * link-local, unique-local, CGNAT, multicast, reserved and the IPv6 ranges that embed an IPv4
 * address of unknown kind are refused. An IPv4-mapped IPv6 address is judged as its IPv4 address.
 * WEBHOOKS_ALLOW_PRIVATE turns the guard off (tests, local development).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why a URL may not be registered as an endpoint, or null. A host name is resolved and every address
 * it has must be public; one that does not resolve now is accepted (it is checked again on every
 * delivery, at connection time).
 */
export async function refusedWebhookUrl(raw: string, allowPrivate: boolean): Promise<FieldProblem | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { field: 'url', message: 'not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { field: 'url', message: 'must be an http or https URL' };
  if (url.username || url.password) return { field: 'url', message: 'must not carry credentials; authenticate with the signature' };
  if (allowPrivate) return null;
  const host = hostOf(url);
  if (isIP(host)) return isPublicAddress(host) ? null : { field: 'url', message: `${host} is not a public address` };
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host, { all: true, order: 'verbatim' });
  } catch {
    return null;
  }
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  return refused ? { field: 'url', message: `${host} resolves to ${refused.address}, which is not a public address` } : null;
}

export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'RefusedAddressError';
  }
}

/**
 * A `lookup` for node:http(s) requests: the addresses a connection will use are the ones checked,
 * so a host that resolves differently between registration and delivery (DNS rebinding) is still
 * refused. Node does not call it for an IP literal, which `assertPublicHost` checks first.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { family: options.family, all: true, order: 'verbatim' }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(Object.assign(new RefusedAddressError(hostname, refused.address), { code: 'EREFUSEDADDRESS' }), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    callback(null, first.address, first.family);
  });
};

/** An IP literal host must itself be public (no lookup happens for it). */
export function assertPublicHost(url: URL): void {
  const host = hostOf(url);
  if (isIP(host) && !isPublicAddress(host)) throw new RefusedAddressError(host, host);
}
