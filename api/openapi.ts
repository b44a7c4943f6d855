import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { healthSchema } from './rest/health';
import { registerRoutes, type Route } from './rest/define';
import { trpcScopeMarkdown, type ScopeRow } from './scope-table';
import { errorResponses } from './openapi-errors';
import { registerOAuthPaths } from './oauth/openapi';

export const API_VERSION = '0.0.1';

/** The OpenAPI 3.1 document, generated from the same route specs and zod schemas the server runs. */
export function buildOpenApiDocument(routes: Route[], scopes: ScopeRow[], serverUrl?: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key (`svc_` + 64 hex), an OAuth 2.0 access token (`svc_access_token_…`) or a session token from the identity provider.',
  });
  registry.registerPath({
    method: 'get',
    path: '/health',
    summary: 'Health of the service and its dependencies',
    tags: ['Health'],
    responses: {
      200: { description: 'Every dependency is up.', content: { 'application/json': { schema: healthSchema } } },
      503: { description: 'A dependency is down; `checks` says which.', content: { 'application/json': { schema: healthSchema } } },
      ...errorResponses([500]),
    },
  });
  registerRoutes(registry, routes);
  registerOAuthPaths(registry);

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
        'The same operations are available over tRPC at `/trpc` (batching on); each procedure needs these scopes:',
        '',
        trpcScopeMarkdown(scopes),
      ].join('\n'),
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
  });
}
