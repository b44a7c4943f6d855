import type Router from '@koa/router';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { AppState } from './state';

/**
 * Runs a router only for the paths its own routes name: a path without parameters exactly
 * (`/health`), one with parameters by what comes before the first (`/i/:token`: everything under
 * `/i/`). Every request would otherwise try each route pattern of each router it passes. The router
 * stays visible on the middleware (`router`), for whoever lists the gateway's routes.
 */
export function under(router: Router<AppState>): Middleware<AppState> {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const { path } of router.stack) {
    if (typeof path !== 'string') throw new Error('a gated router names its routes by path, not by pattern');
    const variable = path.search(/[:*(]/);
    if (variable < 0) exact.add(path);
    else prefixes.push(path.slice(0, variable));
  }
  const serves = (path: string) => exact.has(path) || prefixes.some((p) => path.startsWith(p));
  // The router's middleware adds `params` to the context it is given: any koa context will do.
  const run = router.routes() as unknown as (ctx: ParameterizedContext<AppState>, next: Next) => unknown;
  // Not async: a request that passes by costs no promise of its own.
  const gated: Middleware<AppState> = (ctx, next) => (serves(ctx.path) ? run(ctx, next) : next());
  return Object.assign(gated, { router });
}
