import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Principal } from '../../shared/domain/auth/principal';
import { validationError } from '../../shared/errors';
import { assertScopes } from '../auth/guard';
import type { Authenticator } from '../auth/authenticate';
import type { Operation } from '../auth/required-scopes';
import type { AppState } from '../http/state';
import { errorResponses } from '../openapi-errors';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One REST operation, described once: the koa route, its validation, its scope check and its
 * OpenAPI entry all come from this object.
 */
export interface RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: Method;
  /** koa-style path, e.g. `/transactions/:id`; `METHOD path` must be a key of REQUIRED_SCOPES. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  response: z.ZodType;
  status?: 200 | 201 | 202 | 204;
  handler: (input: { principal: Principal; params: z.output<P>; query: z.output<Q>; body: z.output<B>; ctx: Context }) => Promise<unknown>;
}

export const defineRoute = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(spec: RouteSpec<P, Q, B>) =>
  spec as unknown as RouteSpec;

const operationOf = (spec: RouteSpec) => `${spec.method.toUpperCase()} ${spec.path}` as Operation;

function parse<T extends z.ZodType>(schema: T | undefined, value: unknown, where: string): z.output<T> {
  if (!schema) return undefined as z.output<T>;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

export function mountRoutes(router: Router<AppState>, specs: RouteSpec[], authenticate: Authenticator): void {
  for (const spec of specs) {
    const operation = operationOf(spec);
    router[spec.method](spec.path, async (ctx) => {
      const principal = await authenticate(ctx.get('authorization') || undefined);
      ctx.state.principal = principal;
      assertScopes(principal, operation);
      const params = parse(spec.params, ctx.params, 'path parameters');
      const query = parse(spec.query, ctx.query, 'query parameters');
      const body = parse(spec.body, (ctx.request as { body?: unknown }).body, 'request body');
      const result = await spec.handler({ principal, params, query, body, ctx });
      ctx.status = spec.status ?? 200;
      if (spec.status !== 204) ctx.body = result;
    });
  }
}

const toOpenApiPath = (p: string) => p.replace(/:(\w+)/g, '{$1}');

export function registerRoutes(registry: OpenAPIRegistry, specs: RouteSpec[], requiredScopes: Record<string, readonly string[]>): void {
  for (const spec of specs) {
    const scopes = requiredScopes[operationOf(spec)] ?? [];
    registry.registerPath({
      method: spec.method,
      path: toOpenApiPath(spec.path),
      summary: spec.summary,
      description: [spec.description, `Required scopes: \`${scopes.join('`, `')}\`.`].filter(Boolean).join('\n\n'),
      tags: [spec.tag],
      security: [{ bearerAuth: [...scopes] }],
      request: {
        params: spec.params as z.ZodObject | undefined,
        query: spec.query as z.ZodObject | undefined,
        body: spec.body ? { content: { 'application/json': { schema: spec.body } }, required: true } : undefined,
      },
      responses: {
        [spec.status ?? 200]: spec.status === 204
          ? { description: 'Done; no body.' }
          : { description: 'Success.', content: { 'application/json': { schema: spec.response } } },
        ...errorResponses([400, 401, 403, 429, 500]),
      },
    });
  }
}
