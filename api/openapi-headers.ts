import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';

type Header = { id: string; description: string; required: boolean; schema: { type: 'string' | 'integer'; enum?: string[] } };

/**
 * The response headers the gateway sets, each a reusable component of the document: `x-request-id`
 * (http/request-id.ts), the IETF RateLimit fields and `Retry-After` (http/rate-limit.ts, and the
 * authentication and OAuth throttles), `Idempotent-Replayed` (both doors' Idempotency-Key),
 * `Content-Disposition` (file downloads) and `Location` (OAuth redirects).
 */
export const RESPONSE_HEADERS = {
  'x-request-id': {
    id: 'RequestId',
    description:
      "The request's id: the caller's own `x-request-id` when it is a token of 1 to 128 letters, digits and `._:-`, else a new UUID. Quote it when reporting a problem.",
    required: true,
    schema: { type: 'string' },
  },
  'RateLimit-Limit': {
    id: 'RateLimitLimit',
    description:
      'Requests allowed per minute to this credential (or, without one, this IP); each call of a tRPC batch counts. Absent only while the shared counters cannot be reached, when requests are let through.',
    required: false,
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    id: 'RateLimitRemaining',
    description: 'Requests left in the current window.',
    required: false,
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    id: 'RateLimitReset',
    description: 'Seconds until the window ends and the budget is whole again.',
    required: false,
    schema: { type: 'integer' },
  },
  'Retry-After': {
    id: 'RetryAfter',
    description: 'Seconds to wait before trying again.',
    required: true,
    schema: { type: 'integer' },
  },
  'Idempotent-Replayed': {
    id: 'IdempotentReplayed',
    description:
      'Sent, as `true`, when this is the kept answer of an earlier request with the same `Idempotency-Key`, replayed instead of run again.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  'Content-Disposition': {
    id: 'ContentDisposition',
    description:
      "`attachment` with the file's name (RFC 6266): an ASCII `filename`, and the name itself as UTF-8 `filename*` (RFC 8187) when the two differ.",
    required: true,
    schema: { type: 'string' },
  },
  Location: {
    id: 'Location',
    description: "Where the browser goes next: the client's `redirect_uri` with `code` and `state`, or with `error` and `state`.",
    required: true,
    schema: { type: 'string' },
  },
} satisfies Record<string, Header>;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

export function registerResponseHeaders(registry: OpenAPIRegistry): void {
  for (const { id, description, required, schema } of Object.values(RESPONSE_HEADERS) as Header[])
    registry.registerComponent('headers', id, { description, required, schema });
}

/** What decides a path's response headers besides its status. */
export interface HeaderTraits {
  /** Behind the per-credential rate limit (everything but the probes): every answer carries the RateLimit fields. */
  rateLimited: boolean;
  /** A mutation that takes an Idempotency-Key: its success may be a replay. */
  idempotent?: boolean;
  /** A file download: its success names the file. */
  file?: boolean;
}

/** The headers a response of this status carries on a path with these traits, by name. */
export function headersOf(status: string, traits: HeaderTraits): ResponseHeader[] {
  const success = status.startsWith('2');
  return [
    'x-request-id' as const,
    ...(traits.rateLimited ? (['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const) : []),
    ...(status === '429' ? (['Retry-After'] as const) : []),
    ...(success && traits.idempotent ? (['Idempotent-Replayed'] as const) : []),
    ...(success && traits.file ? (['Content-Disposition'] as const) : []),
    ...(status === '302' ? (['Location'] as const) : []),
  ];
}

/** The responses with their headers, each a reference to its component. */
export function withHeaders(responses: RouteConfig['responses'], traits: HeaderTraits): RouteConfig['responses'] {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      {
        ...response,
        headers: Object.fromEntries(
          headersOf(status, traits).map((name) => [name, { $ref: `#/components/headers/${RESPONSE_HEADERS[name].id}` }]),
        ),
      },
    ]),
  );
}
