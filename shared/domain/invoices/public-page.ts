import { escapeHtml as e } from '../common/html';
import { formatMoney } from '../currencies/money';
import { localeOf, paymentLines, type InvoiceParties } from './pdf';
import type { InvoiceDto } from './schema';
import { lineAmounts } from './totals';
import { numberShown } from './numbering';

/**
 * The invoice as its customer sees it at the public link: the same facts as the PDF, and a link to
 * download it. One self-contained page (inline styles, no scripts), every value escaped.
 */
export function invoicePageHtml(
  { invoice, team, customer }: { invoice: InvoiceDto } & InvoiceParties,
  pdfHref: string,
  eInvoice?: { href: string; label: string },
): string {
  // The same conventions as the PDF: the team's country decides how money reads.
  const locale = localeOf(team.countryCode);
  const money = (n: number, currency: string, opts?: { price?: boolean }) => formatMoney(n, currency, locale, opts);
  const rows = invoice.lineItems
    .map(
      (l) =>
        `<tr><td>${e(l.unit ? `${l.name} (${l.unit})` : l.name)}</td><td class="n">${l.quantity}</td><td class="n">${e(money(l.price, invoice.currency, { price: true }))}</td><td class="n">${l.vatRate ? `${l.vatRate} %` : '—'}</td><td class="n">${e(money(lineAmounts(l, invoice.currency).net, invoice.currency))}</td></tr>`,
    )
    .join('');
  const status =
    invoice.status === 'paid' ? 'Paid' : invoice.status === 'canceled' ? 'Canceled' : invoice.dueDate ? `Due ${invoice.dueDate}` : 'Open';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Invoice ${e(numberShown(invoice))} from ${e(team.name)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;color:#1f2933;background:#f5f7fa;margin:0;padding:2rem 1rem}
main{max-width:760px;margin:auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 3px #0002}
h1{margin:0;font-size:1.6rem}.muted{color:#616e7c}.top{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}
table{width:100%;border-collapse:collapse;margin:1.5rem 0}th,td{padding:.5rem .25rem;border-bottom:1px solid #e4e7eb;text-align:left}
th{font-size:.75rem;text-transform:uppercase;color:#616e7c}.n{text-align:right}.total td{font-weight:700;font-size:1.1rem;border:0}
a.button{display:inline-block;background:#1f2933;color:#fff;padding:.6rem 1rem;border-radius:6px;text-decoration:none}
</style></head>
<body><main>
<div class="top"><div><h1>${e(team.name)}</h1><div class="muted">${e(team.email ?? '')}</div></div>
<div class="n"><strong>Invoice ${e(numberShown(invoice))}</strong><div class="muted">Issued ${e(invoice.issueDate ?? '—')}</div><div>${e(status)}</div></div></div>
<p><span class="muted">Billed to</span><br><strong>${e(customer?.name ?? invoice.customer?.name ?? '—')}</strong></p>
<table><thead><tr><th>Description</th><th class="n">Qty</th><th class="n">Unit price</th><th class="n">VAT</th><th class="n">Amount</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><td colspan="4" class="n">Subtotal</td><td class="n">${e(money(invoice.subtotal, invoice.currency))}</td></tr>
<tr><td colspan="4" class="n">VAT</td><td class="n">${e(money(invoice.vat, invoice.currency))}</td></tr>
${invoice.discount ? `<tr><td colspan="4" class="n">Discount</td><td class="n">−${e(money(invoice.discount, invoice.currency))}</td></tr>` : ''}
<tr class="total"><td colspan="4" class="n">Total due</td><td class="n">${e(money(invoice.amount, invoice.currency))}</td></tr></tfoot></table>
<p>${paymentLines(invoice, team, (d) => d ?? '—')
    .map((l) => e(l))
    .join('<br>')}</p>
${invoice.note ? `<p class="muted">${e(invoice.note)}</p>` : ''}
<p><a class="button" href="${e(pdfHref)}">Download PDF</a>${eInvoice ? ` <a class="button" href="${e(eInvoice.href)}">${e(eInvoice.label)}</a>` : ''}</p>
</main></body></html>`;
}

export const NOT_FOUND_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Invoice not found</title></head>
<body style="font:15px system-ui,sans-serif;padding:3rem;text-align:center"><h1>Invoice not found</h1>
<p>This link no longer shows an invoice: it may have been replaced or revoked. Ask the sender for a new one.</p></body></html>`;
