import type { MailMessage } from '../../providers/mail';
import type { ExportFormat } from '../../db/models';
import { escapeHtml as e } from '../common/html';

/** What the accountant's email says about the shared export. */
export interface AccountantLinkEmail {
  to: string;
  teamName: string;
  url: string;
  expiresAt: Date;
  formats: ExportFormat[];
  rows: number;
  receipts: number;
  /** The period the export's filter chose, when it chose one. */
  from: string | null;
  until: string | null;
}

const FILES: Record<ExportFormat, string> = {
  csv: 'transactions.csv (the transactions, one per line)',
  xlsx: 'transactions.xlsx (the same as an Excel workbook)',
  receipts: 'receipts/ (the receipts and invoices attached to them)',
  datev: 'EXTF_Buchungsstapel_<year>.csv (the bookings for DATEV, with the team’s account mapping)',
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const day = (d: Date) => d.toISOString().slice(0, 10);

function period(c: AccountantLinkEmail): string {
  if (c.from && c.until) return ` from ${c.from} to ${c.until}`;
  if (c.from) return ` from ${c.from}`;
  if (c.until) return ` until ${c.until}`;
  return '';
}

/**
 * The email that hands an export to an outside accountant: what it holds, the link (it needs no
 * sign-in, so the mail says so and asks not to forward it) and when the link stops working. The
 * link carries the token: this message is the one place it is written besides the creating answer.
 */
export function accountantLinkEmail(c: AccountantLinkEmail, messageId: string): MailMessage {
  const lead = `${c.teamName} has shared a transaction export with you: ${plural(c.rows, 'transaction', 'transactions')}${period(c)}, with ${plural(c.receipts, 'receipt', 'receipts')}.`;
  const files = c.formats.map((f) => FILES[f]);
  const expires = c.expiresAt.toUTCString();
  const text = [
    'Hello,',
    '',
    lead,
    '',
    'The ZIP file holds:',
    ...files.map((f) => `  - ${f}`),
    '',
    `Download it here (no sign-in needed): ${c.url}`,
    '',
    `The link works until ${expires}, unless ${c.teamName} revokes it sooner. Each download is recorded in the team’s audit trail.`,
    'Anyone who has the link can download the file: please do not forward this email.',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`Transaction export from ${c.teamName}`)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#111827;">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;">
<div style="background:#ffffff;border-radius:8px;padding:24px;">
<p style="margin:0 0 8px;font-size:14px;color:#6b7280;">${e(c.teamName)}</p>
<p style="margin:0 0 16px;font-size:17px;line-height:1.5;">${e(lead)}</p>
<p style="margin:0 0 8px;font-size:14px;">The ZIP file holds:</p>
<ul style="margin:0 0 20px;padding-left:20px;font-size:14px;line-height:1.6;">${files.map((f) => `<li>${e(f)}</li>`).join('')}</ul>
<p style="margin:0 0 20px;"><a href="${e(c.url)}" style="display:inline-block;background:#111827;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-size:15px;">Download the export</a></p>
<p style="margin:0 0 8px;font-size:14px;line-height:1.6;">The link works until <strong>${e(expires)}</strong>, unless ${e(c.teamName)} revokes it sooner. Each download is recorded in the team’s audit trail.</p>
<p style="margin:0;font-size:13px;color:#6b7280;">Anyone who has the link can download the file: please do not forward this email.</p>
</div>
</div>
</body>
</html>`;
  return {
    to: c.to,
    subject: `${c.teamName}: transaction export for you (link valid until ${day(c.expiresAt)})`,
    text,
    html,
    messageId,
  };
}
