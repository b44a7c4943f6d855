import type { Middleware } from 'koa';
import type { Logger } from '../../shared/logger';
import type { AppState } from './state';

/**
 * One JSON line per request with its id, team and outcome; never headers or bodies. The request's
 * own logger (`state.log`, bound to its id) is made when something first logs with it: most
 * requests log nothing at the levels production runs, and a child logger per request costs.
 */
export function accessLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (log ??= logger.child({ requestId: ctx.state.requestId })),
      configurable: true,
      enumerable: true,
    });
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        ctx.state.log.info(
          { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, teamId: ctx.state.principal?.teamId },
          'request',
        );
      }
    }
  };
}
