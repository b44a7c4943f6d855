import Router from '@koa/router';
import { openAccountantLink } from '../shared/domain/accountant-links/service';
import { NOT_FOUND_PAGE } from '../shared/domain/invoices/public-page';
import type { ApiDeps } from './deps';
import { attachmentDisposition } from './http/content-disposition';
import type { AppState } from './http/state';

/**
 * An export shared with an outside accountant (`/accountant/:token`): the ZIP, with no credentials.
 * Unknown, expired and revoked links all answer the same 404, so a holder learns nothing of which;
 * the service records each use of a known link in its team's audit trail.
 */
export function accountantLinkRouter({ db, storage }: Pick<ApiDeps, 'db' | 'storage'>) {
  const router = new Router<AppState>();
  router.get('/accountant/:token', async (ctx) => {
    const file = await openAccountantLink(db, storage, ctx.params.token, ctx.ip);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Referrer-Policy', 'no-referrer'); // the token is in the URL
    if (!file) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = NOT_FOUND_PAGE;
      return;
    }
    ctx.type = file.mimeType;
    ctx.length = file.size;
    ctx.set('Content-Disposition', attachmentDisposition(file.name));
    ctx.body = file.stream;
  });
  return router;
}
