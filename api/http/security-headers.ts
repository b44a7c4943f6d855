import type { Middleware } from 'koa';
import type { AppState } from './state';

/**
 * Headers every response needs: no MIME sniffing anywhere; nothing fetched with a credential is kept
 * in a shared or browser cache (a handler that sets its own Cache-Control, like public metadata,
 * overrides it); and no page of ours can be framed (clickjacking of the consent page). Set before the
 * handler runs, so they also reach responses that tRPC writes itself.
 */
export function securityHeaders(): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    const credentialed = Boolean(ctx.get('authorization')) || ctx.path.startsWith('/oauth/') || ctx.path.startsWith('/auth/');
    if (credentialed) ctx.set('Cache-Control', 'no-store');
    await next();
    // The header as it was set, not koa's parsed `type`, and read alone (koa's `headers` copies them
    // all): this runs on every response. Absent on a response without a body (a 204 preflight).
    const type: unknown = ctx.res.getHeader('content-type');
    if (ctx.respond !== false && typeof type === 'string' && type.startsWith('text/html')) {
      const csp = ctx.response.get('Content-Security-Policy');
      if (!csp) ctx.set('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
      else if (!csp.includes('frame-ancestors')) ctx.set('Content-Security-Policy', `${csp}; frame-ancestors 'none'`);
      ctx.set('X-Frame-Options', 'DENY');
    }
  };
}
