import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { Logger } from '../../shared/logger';
import type { AppState } from './state';

/**
 * One JSON line per request with its id, team and outcome; never headers or bodies. The request's
 * own logger (`state.log`, bound to its id) is made when something first logs with it: most
 * requests log nothing at the levels production runs, and a child logger per request costs.
 */
export function accessLog(logger: Logger): Middleware<AppState> {
  return (ctx, next) => {
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (log ??= logger.child({ requestId: ctx.state.requestId })),
      configurable: true,
      enumerable: true,
    });
    // Below info (as production may run) there is no line to write: nothing to time or wait for.
    return logger.isLevelEnabled('info') ? logged(ctx, next) : next();
  };
}

async function logged(ctx: ParameterizedContext<AppState>, next: Next): Promise<void> {
  const start = process.hrtime.bigint();
  try {
    await next();
  } finally {
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    ctx.state.log.info(
      { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, teamId: ctx.state.principal?.teamId },
      'request',
    );
  }
}
