import type { Middleware } from 'koa';
import type { Logger } from '../../shared/logger';
import type { AppState } from './state';

/** One JSON line per request with its id, team and outcome; never headers or bodies. */
export function accessLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    ctx.state.log = logger.child({ requestId: ctx.state.requestId });
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      ctx.state.log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, teamId: ctx.state.principal?.teamId },
        'request',
      );
    }
  };
}
