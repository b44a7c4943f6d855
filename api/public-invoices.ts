import Router from '@koa/router';
import { invoiceByPublicToken } from '../shared/domain/invoices/public-link';
import { invoicePageHtml, NOT_FOUND_PAGE } from '../shared/domain/invoices/public-page';
import { renderInvoicePdf } from '../shared/domain/invoices/pdf';
import { eInvoiceLabel, invoiceEInvoiceOf } from '../shared/domain/e-invoices/service';
import { AppError } from '../shared/errors';
import type { ApiDeps } from './deps';
import { attachmentDisposition } from './http/content-disposition';
import type { AppState } from './http/state';

// The page has no scripts and loads nothing: everything it shows is inline.
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The invoice at its public link (`/i/:token`), for a customer without an account: HTML, and its PDF. */
export function publicInvoiceRouter({ db, storage }: Pick<ApiDeps, 'db' | 'storage'>) {
  const router = new Router<AppState>();
  const find = async (ctx: { state: AppState; ip: string }, token: string) => {
    try {
      return await invoiceByPublicToken(db, token, storage, { requestId: ctx.state.requestId, ip: ctx.ip });
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    }
  };
  router.get('/i/:token', async (ctx) => {
    const found = await find(ctx, ctx.params.token);
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Referrer-Policy', 'no-referrer'); // the token is in the URL: links out must not carry it
    ctx.type = 'text/html; charset=utf-8';
    if (!found) {
      ctx.status = 404;
      ctx.body = NOT_FOUND_PAGE;
      return;
    }
    const base = `/i/${encodeURIComponent(ctx.params.token)}`;
    const label = eInvoiceLabel(found.customer?.eInvoiceFormat);
    ctx.body = invoicePageHtml(found, `${base}/pdf`, label ? { href: `${base}/e-invoice`, label } : undefined);
  });
  router.get('/i/:token/pdf', async (ctx) => {
    const found = await find(ctx, ctx.params.token);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (!found) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = NOT_FOUND_PAGE;
      return;
    }
    const pdf = await renderInvoicePdf(found);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', attachmentDisposition(`${found.invoice.invoiceNumber}.pdf`));
    ctx.body = pdf;
  });
  // The e-invoice the customer chose (their eInvoiceFormat); 404 when they chose none, 409 when it cannot be made.
  router.get('/i/:token/e-invoice', async (ctx) => {
    const found = await find(ctx, ctx.params.token);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    const format = found?.customer?.eInvoiceFormat;
    if (!found || !format) {
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = NOT_FOUND_PAGE;
      return;
    }
    const file = await invoiceEInvoiceOf(db, found.teamId, found, format);
    ctx.type = file.mimeType;
    ctx.set('Content-Disposition', attachmentDisposition(file.fileName));
    ctx.body = file.body;
  });
  return router;
}
