import path from 'node:path';
import { buildOpenApiDocument } from '../../api/openapi';
import { operations } from '../../api/operations';
import { doorOf } from '../../api/operations/declare';
import { ALL_SCOPES } from '../../shared/domain/auth/scopes';
import { WEBHOOK_EVENT_DATA } from '../../shared/domain/webhook-endpoints/event-types';

const ROOT = path.join(__dirname, '../..');

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended lint with no error or warning (redocly.yaml says which rules are off and why)", async () => {
    // An ES module: loaded as one, not through the test's CommonJS require.
    const { lintFromString, loadConfig } = await import('@redocly/openapi-core');
    const config = await loadConfig({ configPath: path.join(ROOT, 'redocly.yaml') });
    for (const serverUrl of [undefined, 'https://api.finops.dev']) {
      const problems = await lintFromString({
        source: JSON.stringify(buildOpenApiDocument(operations, serverUrl)),
        absoluteRef: path.join(ROOT, 'openapi.json'),
        config,
      });
      expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
    }
  });
});

describe('its security', () => {
  type Op = { security?: Record<string, string[]>[] };
  const doc = buildOpenApiDocument(operations, 'https://api.finops.dev') as unknown as {
    paths: Record<string, Record<string, Op>>;
    components: { securitySchemes: Record<string, { type: string; flows?: { authorizationCode: Record<string, unknown> } }> };
  };

  it("offers OAuth 2.0's authorization code flow against our own server, with every scope an application can ask for", () => {
    const { oauth2 } = doc.components.securitySchemes;
    expect(oauth2.type).toBe('oauth2');
    expect(oauth2.flows?.authorizationCode).toMatchObject({
      authorizationUrl: 'https://api.finops.dev/oauth/authorize',
      tokenUrl: 'https://api.finops.dev/oauth/token',
      refreshUrl: 'https://api.finops.dev/oauth/token',
    });
    expect(Object.keys(oauth2.flows!.authorizationCode.scopes as object)).toEqual([...ALL_SCOPES]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has each declared operation ask, under OAuth 2.0 or a bearer token, for exactly the scopes its declaration names', () => {
    for (const op of operations.filter((o) => o.rest)) {
      const { method, path: route } = doorOf(op.rest!);
      const documented = doc.paths[route.replace(/:(\w+)/g, '{$1}')][method.toLowerCase()];
      expect({ op: op.name, security: documented.security }).toEqual({
        op: op.name,
        security: [{ oauth2: [...op.scopes] }, { bearerAuth: [...op.scopes] }],
      });
    }
  });
});

describe('its webhooks', () => {
  it('document every event the sender emits, each body from the schema the sender is typed by', () => {
    const doc = buildOpenApiDocument(operations) as unknown as {
      webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(WEBHOOK_EVENT_DATA).sort());
    for (const [type, hook] of Object.entries(doc.webhooks)) {
      const ref = hook.post.requestBody.content['application/json'].schema.$ref;
      const body = doc.components.schemas[ref.replace('#/components/schemas/', '')];
      expect(body.properties.type).toEqual({ type: 'string', enum: [type] });
      expect(Object.keys(body.properties)).toEqual(['type', 'timestamp', 'data']);
    }
  });
});
