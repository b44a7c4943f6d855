import { escapeHtml } from '../common/html';

/** What the invoice email says, worked out once for its text and its HTML part. */
export interface InvoiceEmailContent {
  teamName: string;
  invoiceNumber: string;
  /** One sentence: who sends what, or what is still open. */
  lead: string;
  amountDue: string;
  due: string | null;
  /** How to pay (the team's payment details and the reference to quote), one line each. */
  payment: string[];
  link: string | null;
  reminder: boolean;
  /** What the document is called (a credit note reuses the invoice's email); default `Invoice`. */
  document?: string;
  /** The label of the amount row; default `Amount due`. */
  amountLabel?: string;
}

const ROW = 'padding:6px 0;border-bottom:1px solid #e5e7eb;';

/**
 * The HTML part of an invoice email: one column no wider than a phone's screen needs, inline styles
 * only (mail clients drop style sheets), every value escaped; the figures a customer looks for first
 * (amount, due date, number) in a table, then how to pay and the link to the invoice.
 */
export function invoiceEmailHtml(c: InvoiceEmailContent): string {
  const e = escapeHtml;
  const document = c.document ?? 'Invoice';
  const rows: [string, string][] = [
    [c.amountLabel ?? 'Amount due', c.amountDue],
    ...(c.due ? ([['Due date', c.due]] as [string, string][]) : []),
    [document, c.invoiceNumber],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`${document} ${c.invoiceNumber} from ${c.teamName}`)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#111827;">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;">
<div style="background:#ffffff;border-radius:8px;padding:24px;">
<p style="margin:0 0 8px;font-size:14px;color:#6b7280;">${e(c.teamName)}</p>
<p style="margin:0 0 20px;font-size:17px;line-height:1.5;">${e(c.lead)}</p>
<table role="presentation" style="width:100%;border-collapse:collapse;font-size:15px;margin:0 0 20px;">
${rows.map(([k, v]) => `<tr><td style="${ROW}color:#6b7280;">${e(k)}</td><td style="${ROW}text-align:right;font-weight:600;">${e(v)}</td></tr>`).join('\n')}
</table>
${c.payment.length ? `<p style="margin:0 0 20px;font-size:14px;line-height:1.6;">${c.payment.map(e).join('<br>')}</p>` : ''}
${
  c.link
    ? `<p style="margin:0 0 20px;"><a href="${e(c.link)}" style="display:inline-block;background:#111827;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-size:15px;">View and download the invoice</a></p>`
    : ''
}
<p style="margin:0;font-size:13px;color:#6b7280;">The ${e(document.toLowerCase())} is attached as a PDF.${c.reminder ? ' If you have paid it already, thank you, and please ignore this reminder.' : ''}</p>
</div>
</div>
</body>
</html>
`;
}
