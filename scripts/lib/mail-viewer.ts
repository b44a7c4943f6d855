import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressObject } from 'mailparser';
import { escapeHtml as e } from '../../shared/domain/common/html';
import type { CaughtMail } from './mail-catcher';

/**
 * The mail catcher's pages: the list of caught messages (newest first, refreshed every few seconds),
 * one message with its HTML part framed, its text part and its attachments, and the same as JSON at
 * /api/messages for scripts and tests. A message's HTML runs sandboxed: no script, no form, and its
 * links open in a tab of their own.
 */
export function mailViewer(messages: () => readonly CaughtMail[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://catcher');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
    if (url.pathname === '/') return page(res, listPage(messages()));
    if (url.pathname === '/api/messages') return json(res, [...messages()].reverse().map(summary));
    const m = /^\/messages\/(\d+)(?:\/(html|text|raw|attachments\/(\d+)))?$/.exec(url.pathname);
    const mail = m ? messages().find((x) => x.id === Number(m[1])) : undefined;
    if (!m || !mail) return send(res, 404, 'text/plain', 'No such message (the catcher keeps the newest 500, in memory)');
    // An optional group that did not match is undefined, whatever exec's type says.
    switch (m[2] as string | undefined) {
      case undefined:
        return page(res, messagePage(mail, url.searchParams.get('width') === 'phone'));
      case 'html':
        return mailHtml(res, mail);
      case 'text':
        return send(res, 200, 'text/plain; charset=utf-8', mail.parsed.text ?? '');
      case 'raw':
        return download(res, 'message/rfc822', `message-${mail.id}.eml`, mail.raw);
      default: {
        const attachment = mail.parsed.attachments[Number(m[3])] as (typeof mail.parsed.attachments)[number] | undefined;
        if (!attachment) return send(res, 404, 'text/plain', 'No such attachment');
        return download(res, attachment.contentType, attachmentName(attachment.filename, Number(m[3])), attachment.content);
      }
    }
  };
}

const attachmentName = (filename: string | undefined, index: number) => filename ?? `attachment-${index + 1}`;

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  a === undefined
    ? ''
    : [a]
        .flat()
        .map((x) => x.text)
        .join(', ');

function summary(mail: CaughtMail) {
  const base = `/messages/${mail.id}`;
  return {
    id: mail.id,
    receivedAt: mail.receivedAt.toISOString(),
    envelope: mail.envelope,
    from: mail.parsed.from?.text ?? '',
    to: addresses(mail.parsed.to),
    subject: mail.parsed.subject ?? '',
    text: mail.parsed.text ?? '',
    hasHtml: mail.parsed.html !== false,
    links: { page: base, html: `${base}/html`, text: `${base}/text`, raw: `${base}/raw` },
    attachments: mail.parsed.attachments.map((a, i) => ({
      filename: attachmentName(a.filename, i),
      contentType: a.contentType,
      size: a.size,
      url: `${base}/attachments/${i}`,
    })),
  };
}

const STYLE = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
  header { background: #1d2330; color: #fff; padding: 10px 20px; }
  header a { color: #fff; text-decoration: none; font-weight: 600; }
  main { padding: 16px 20px; max-width: 1100px; }
  table { border-collapse: collapse; width: 100%; background: #fff; }
  td, th { text-align: left; padding: 8px 10px; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
  th { font-weight: 600; color: #596070; width: 9em; }
  tr.mail:hover { background: #eef3ff; }
  .muted { color: #596070; }
  iframe { border: 1px solid #d5d9e0; background: #fff; width: 100%; height: 70vh; }
  iframe.phone { width: 390px; height: 760px; }
  pre { white-space: pre-wrap; background: #fff; border: 1px solid #d5d9e0; padding: 12px; }
  h2 { font-size: 16px; margin: 24px 0 8px; }
`;

function layout(title: string, body: string, refreshSeconds?: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ''}
<title>${e(title)}</title><style>${STYLE}</style></head>
<body><header><a href="/">Mail caught by npm start</a></header><main>${body}</main></body></html>`;
}

function listPage(messages: readonly CaughtMail[]): string {
  const rows = [...messages]
    .reverse()
    .map(
      (m) =>
        `<tr class="mail"><td class="muted">${e(m.receivedAt.toISOString().replace('T', ' ').slice(0, 19))}</td>` +
        `<td>${e(addresses(m.parsed.to) || m.envelope.to.join(', '))}</td>` +
        `<td><a href="/messages/${m.id}">${e(m.parsed.subject || '(no subject)')}</a></td>` +
        `<td class="muted">${m.parsed.attachments.length ? `${m.parsed.attachments.length} attached` : ''}</td></tr>`,
    )
    .join('');
  const body = messages.length
    ? `<table><tr><th>Received (UTC)</th><th>To</th><th>Subject</th><th></th></tr>${rows}</table>`
    : '<p class="muted">No mail yet. Everything the service sends appears here; this page refreshes itself.</p>';
  return layout(`Mail (${messages.length})`, body, 5);
}

function messagePage(mail: CaughtMail, phone: boolean): string {
  const base = `/messages/${mail.id}`;
  const { parsed } = mail;
  const header = (name: string, value: string) => (value ? `<tr><th>${e(name)}</th><td>${e(value)}</td></tr>` : '');
  const attachments = parsed.attachments
    .map(
      (a, i) =>
        `<li><a href="${base}/attachments/${i}">${e(attachmentName(a.filename, i))}</a> <span class="muted">${e(a.contentType)}, ${a.size} bytes</span></li>`,
    )
    .join('');
  const html =
    parsed.html === false
      ? '<p class="muted">No HTML part.</p>'
      : `<p class="muted">${phone ? `<a href="${base}">Full width</a>` : `<a href="${base}?width=phone">Phone width</a>`} · <a href="${base}/html" target="_blank">Open alone</a></p>` +
        `<iframe ${phone ? 'class="phone" ' : ''}sandbox="allow-popups allow-popups-to-escape-sandbox" src="${base}/html" title="HTML part"></iframe>`;
  const body = `<table>
${header('Subject', parsed.subject ?? '')}
${header('From', parsed.from?.text ?? mail.envelope.from)}
${header('To', addresses(parsed.to))}
${header('Cc', addresses(parsed.cc))}
${header('Reply-To', addresses(parsed.replyTo))}
${header('Delivered to', mail.envelope.to.join(', '))}
${header('Date', (parsed.date ?? mail.receivedAt).toISOString())}
${header('Message-ID', parsed.messageId ?? '')}
</table>
<h2>HTML</h2>${html}
<h2>Text</h2>${parsed.text ? `<pre>${e(parsed.text)}</pre>` : '<p class="muted">No text part.</p>'}
<h2>Attachments</h2>${attachments ? `<ul>${attachments}</ul>` : '<p class="muted">None.</p>'}
<p><a href="${base}/raw">Download the message (.eml)</a></p>`;
  return layout(parsed.subject ?? `Message ${mail.id}`, body);
}

/** The message's own HTML, as its author wrote it, in a sandbox: links open outside it, in a new tab. */
function mailHtml(res: ServerResponse, mail: CaughtMail): void {
  if (mail.parsed.html === false) return send(res, 404, 'text/plain', 'This message has no HTML part');
  res.setHeader(
    'Content-Security-Policy',
    "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline' http: https:; font-src data: http: https:",
  );
  send(res, 200, 'text/html; charset=utf-8', `<base target="_blank">${mail.parsed.html}`);
}

function page(res: ServerResponse, html: string): void {
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'");
  send(res, 200, 'text/html; charset=utf-8', html);
}

function json(res: ServerResponse, value: unknown): void {
  send(res, 200, 'application/json; charset=utf-8', JSON.stringify(value));
}

function download(res: ServerResponse, contentType: string, filename: string, content: Buffer): void {
  // RFC 6266: an ASCII fallback, and the name itself percent-encoded as UTF-8.
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  res.setHeader('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`);
  send(res, 200, contentType, content);
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}
