import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { healthSchema, livenessSchema, readinessSchema } from './health';
import { mountedOf } from './rest/door';
import { errorResponses } from './openapi-errors';
import { registerResponseHeaders, withHeaders } from './openapi-headers';
import { BEARER, OAUTH2, registerSecuritySchemes } from './openapi-security';
import { registerWebhooks } from './openapi-webhooks';
import { registerOAuthPaths } from './oauth/openapi';
import { takesIdempotencyKey, type AnyOperation } from './operations/declare';
import { scopeTable, tagOf, type ScopeRow } from './scope-table';
import { API_VERSION } from './version';

/** The OpenAPI 3.1 document, generated from the same declarations and zod schemas the server runs. */
export function buildOpenApiDocument(operations: readonly AnyOperation[], serverUrl?: string) {
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry, serverUrl);
  registerResponseHeaders(registry);
  const probe = { rateLimited: false };
  registry.registerPath({
    method: 'get',
    path: '/livez',
    operationId: 'health.livez',
    security: [],
    summary: 'Liveness: the process serves HTTP',
    description:
      'Always 200 while the process answers; asks no dependency, so an outage of PostgreSQL or Temporal never makes an orchestrator restart a process that would come back to the same outage.',
    tags: ['Health'],
    responses: withHeaders(
      { 200: { description: 'The process is alive.', content: { 'application/json': { schema: livenessSchema } } } },
      probe,
    ),
  });
  registry.registerPath({
    method: 'get',
    path: '/readyz',
    operationId: 'health.readyz',
    security: [],
    summary: 'Readiness: the process can take traffic',
    description: [
      'PostgreSQL decides: 503 when it does not answer within 2 s, with `description` and `checks` naming what failed.',
      'Temporal is checked and reported but does not make the API unready (`status: degraded`, HTTP 200): without it the API still serves reads and takes provider webhooks, which are recorded and acted on once Temporal answers, and operations that start a workflow answer with an error of their own. An outage of Temporal reaches every API process at once; failing readiness for it would take them all out of rotation.',
      'Workers have their own `/livez` and `/readyz` on a separate port (`WORKER_HEALTH_PORT`), where Temporal does decide.',
    ].join('\n\n'),
    tags: ['Health'],
    responses: withHeaders(
      {
        200: {
          description: 'PostgreSQL answers (Temporal may not: see `status`).',
          content: { 'application/json': { schema: readinessSchema } },
        },
        503: { description: 'PostgreSQL does not answer.', content: { 'application/json': { schema: readinessSchema } } },
        ...errorResponses([500]),
      },
      probe,
    ),
  });
  registry.registerPath({
    method: 'get',
    path: '/health',
    operationId: 'health.get',
    security: [],
    summary: 'Health of the service and its dependencies',
    description:
      'Every dependency at once, for a person or a monitor: 503 when PostgreSQL or Temporal is down. Not a probe for an orchestrator: use `/livez` and `/readyz`.',
    tags: ['Health'],
    responses: withHeaders(
      {
        200: { description: 'Every dependency is up.', content: { 'application/json': { schema: healthSchema } } },
        503: { description: 'A dependency is down; `checks` says which.', content: { 'application/json': { schema: healthSchema } } },
        ...errorResponses([500]),
      },
      probe,
    ),
  });
  // One component, referenced by every mutation that takes it.
  const idempotencyKey = registry.registerComponent('parameters', 'IdempotencyKey', IDEMPOTENCY_KEY).ref;
  for (const op of operations) if (op.rest) registerOperation(registry, op, idempotencyKey);
  registerOAuthPaths(registry);
  registerWebhooks(registry);

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Finops API',
      version: API_VERSION,
      description: [
        'Business-finance backend for teams: transactions, bank connections, invoices, receipts inbox and more.',
        '',
        'Every response is JSON. Success: `{data: …}` (lists add `meta: {cursor, hasNextPage}`). Errors: `{error, description}`.',
        'Lists are newest first with opaque cursors; `pageSize` defaults to 50, at most 500.',
        "Each REST operation's `operationId` is its name, which is also its tRPC procedure at `/trpc` (batching on) where it has one.",
        'Every response carries `x-request-id`, and every one but the probes the `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` of the per-minute budget; a 429 adds `Retry-After`.',
        "Authenticate with a bearer token (API key, OAuth access token or session token) or through OAuth 2.0 (authorization code with PKCE) against this server's own authorization server; each operation lists the scopes it needs. The events sent to webhook endpoints are under `webhooks`.",
        '',
        'Every procedure and the scopes it needs:',
        '',
        trpcScopeMarkdown(scopeTable(operations)),
      ].join('\n'),
    },
    // Without a configured public URL, relative to wherever the document was fetched from.
    servers: [{ url: serverUrl ?? '/' }],
  });
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 255 },
  description:
    'Makes a retry safe: the first request with a key runs, and for 24 hours the same key with the same request returns its response (with `Idempotent-Replayed: true`) instead of running again. The same key with a different request is 422; while the first is still running, 409, until its lease (`IDEMPOTENCY_LEASE`, 2 minutes) shows that it died with its process and a retry may run it. A failed request keeps nothing. Keys are per credential. tRPC mutations take the same header, for a request of one call.',
} as const;

function registerOperation(registry: OpenAPIRegistry, op: AnyOperation, idempotencyKey: { $ref: string }): void {
  const { method, path, params, query, body, status, responseSchema } = mountedOf(op);
  const success: RouteConfig['responses'][string] =
    op.output.kind === 'none'
      ? { description: 'Done; no body.' }
      : op.output.kind === 'events'
        ? { description: op.output.description, content: { 'text/event-stream': { schema: op.output.event } } }
        : op.output.kind === 'file'
          ? {
              description: op.output.description,
              content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
            }
          : { description: 'Success.', content: { 'application/json': { schema: responseSchema ?? z.unknown() } } };
  registry.registerPath({
    method: method.toLowerCase() as Lowercase<typeof method>,
    path: path.replace(/:(\w+)/g, '{$1}'),
    operationId: op.name,
    summary: op.summary,
    description: [op.description, `Required scopes: \`${op.scopes.join('`, `')}\`.`].filter(Boolean).join('\n\n'),
    tags: [tagOf(op.name)],
    deprecated: op.deprecated ? true : undefined,
    security: [{ [OAUTH2]: [...op.scopes] }, { [BEARER]: [...op.scopes] }],
    parameters: takesIdempotencyKey(op) ? [idempotencyKey] : undefined,
    request: {
      params,
      query,
      body: op.multipart
        ? { description: op.multipart.description, content: { 'multipart/form-data': { schema: op.multipart.form } }, required: true }
        : body && { content: { 'application/json': { schema: body } }, required: true },
      headers: op.headers,
    },
    responses: withHeaders(
      {
        [status]: success,
        ...errorResponses(
          [
            ...(method === 'GET' ? [400, 401, 403, 404, 429, 500] : [400, 401, 403, 404, 409, 413, 415, 422, 429, 500]),
            ...(op.errors ?? []),
          ].sort(),
        ),
      },
      { rateLimited: true, idempotent: takesIdempotencyKey(op), file: op.output.kind === 'file' },
    ),
  });
}

/** The tRPC half of the scope table as Markdown, deprecated names marked with what replaces them. */
function trpcScopeMarkdown(rows: ScopeRow[]): string {
  const lines = rows
    .filter((r) => r.interface === 'tRPC')
    .map((r) => {
      const note = r.aliasOf ? `deprecated: renamed \`${r.aliasOf}\`` : (r.deprecated ?? '');
      return `| \`${r.operation}\` | ${r.kind} | ${r.scopes.map((s) => `\`${s}\``).join(', ')} | ${note} |`;
    });
  return ['| tRPC procedure | Kind | Required scopes | Note |', '|---|---|---|---|', ...lines].join('\n');
}
