import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from './state';

// A caller's id is echoed only when it is a sane token, so logs cannot be stuffed through it.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(): Middleware<AppState> {
  return (ctx, next) => {
    const given = ctx.get('x-request-id');
    ctx.state.requestId = ACCEPTABLE.test(given) ? given : randomUUID();
    ctx.set('x-request-id', ctx.state.requestId);
    return next();
  };
}
