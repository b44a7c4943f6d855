import type { Middleware } from 'koa';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { RequestAuthenticator } from '../auth/failure-throttle';
import type { AppState } from '../http/state';
import type { AppRouter } from './door';

const PREFIX = '/trpc/';

/** Serves the tRPC router under /trpc (batching on); koa hands the raw request over to tRPC. */
export function trpcMiddleware(appRouter: AppRouter, authenticate: RequestAuthenticator): Middleware<AppState> {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(PREFIX)) {
      await next();
      return;
    }
    ctx.respond = false;
    // koa starts every response at 404; tRPC only sets its own status over a 200.
    ctx.res.statusCode = 200;
    await nodeHTTPRequestHandler({
      router: appRouter,
      req: ctx.req,
      res: ctx.res,
      path: ctx.path.slice(PREFIX.length),
      maxBodySize: 1024 * 1024,
      allowBatching: true,
      createContext: () => ({
        requestId: ctx.state.requestId,
        ip: ctx.ip,
        userAgent: ctx.get('user-agent') || undefined,
        log: ctx.state.log,
        authenticate: () => authenticate(ctx),
      }),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') ctx.state.log.error({ err: error.cause ?? error, path }, 'trpc error');
      },
    });
  };
}
