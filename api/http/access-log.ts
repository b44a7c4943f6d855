import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { Logger } from '../../shared/logger';
import { RequestState, type AppState } from './state';

/**
 * One JSON line per request with its id, team and outcome; never headers or bodies. Gives the
 * request its state (`RequestState`), with the request's own logger.
 */
export function accessLog(logger: Logger): Middleware<AppState> {
  return (ctx, next) => {
    ctx.state = new RequestState(ctx.state.requestId, logger);
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
