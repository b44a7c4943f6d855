import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { AppState } from './state';

/** A router's middleware: it adds `params` to the context it is given, so any koa context will do. */
type Pipeline = (ctx: never, next: Next) => unknown;

/**
 * Runs a pipeline only for the paths it serves: `/health` exactly, or everything under `/webhook/`.
 * Every request would otherwise try each route pattern of each router it passes. The router stays
 * visible on the middleware (`router`), for whoever lists the gateway's routes.
 */
export function under(paths: readonly string[], pipeline: Pipeline): Middleware<AppState> {
  const serves = (path: string) => paths.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));
  const run = pipeline as (ctx: ParameterizedContext<AppState>, next: Next) => unknown;
  // Not async: a request that passes by costs no promise of its own.
  const gated: Middleware<AppState> = (ctx, next) => (serves(ctx.path) ? run(ctx, next) : next());
  return Object.assign(gated, { router: (pipeline as { router?: unknown }).router });
}
