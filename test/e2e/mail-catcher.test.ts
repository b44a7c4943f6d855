import { startMailCatcher, type MailCatcher } from '../../scripts/lib/mail-catcher';
import { createMailer } from '../../shared/providers/mail';
import { launchChromium } from '../support/chromium';
import type { UntypedJson } from '../support/untyped-json';

/**
 * `npm start`'s mail catcher (SMTP_URL unset): what the service's own mailer sends is read back over
 * the catcher's HTTP, as a person would in a browser: the list, the message, its HTML and text parts
 * and its attachment, byte for byte.
 */
let catcher: MailCatcher;

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
});
afterAll(() => catcher?.close());

const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]), Buffer.from('\n%%EOF\n')]);

describe('mail catcher', () => {
  it('shows a mail the service sent: envelope, HTML (sandboxed), text and attachment', async () => {
    const mailer = createMailer(catcher.smtpUrl, 'Acme GmbH <no-reply@finops.local>');
    await mailer.send({
      to: 'kunde@example.com',
      subject: 'Invoice INV-0042 <from> Acme',
      text: 'Amount due: €690.20\nView it: http://localhost:3000/i/tok-42',
      html: '<p>Amount due: <b>€690.20</b></p><p><a href="http://localhost:3000/i/tok-42">View it</a></p><script>alert(1)</script>',
      replyTo: 'billing@acme.example',
      attachments: [{ filename: 'Rechnung INV-0042 (ü).pdf', content: pdf, contentType: 'application/pdf' }],
    });
    mailer.close();

    const list = (await (await fetch(`${catcher.url}/api/messages`)).json()) as UntypedJson[];
    expect(list).toHaveLength(1);
    const [m] = list;
    expect(m).toMatchObject({
      subject: 'Invoice INV-0042 <from> Acme',
      from: '"Acme GmbH" <no-reply@finops.local>',
      to: 'kunde@example.com',
      envelope: { from: 'no-reply@finops.local', to: ['kunde@example.com'] },
      hasHtml: true,
      attachments: [{ filename: 'Rechnung INV-0042 (ü).pdf', contentType: 'application/pdf', size: pdf.length }],
    });
    expect(m.text).toContain('View it: http://localhost:3000/i/tok-42');

    const html = await fetch(`${catcher.url}${m.links.html}`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // The mail's own script never runs: the page is a sandbox without allow-scripts, and links leave it.
    expect(html.headers.get('content-security-policy')).toMatch(/^sandbox allow-popups allow-popups-to-escape-sandbox;/);
    const htmlBody = await html.text();
    expect(htmlBody).toContain('<b>€690.20</b>');
    expect(htmlBody).toContain('href="http://localhost:3000/i/tok-42"');

    expect(await (await fetch(`${catcher.url}${m.links.text}`)).text()).toContain('Amount due: €690.20');

    const attachment = await fetch(`${catcher.url}${m.attachments[0].url}`);
    expect(attachment.headers.get('content-type')).toBe('application/pdf');
    expect(attachment.headers.get('content-disposition')).toBe(
      `attachment; filename="Rechnung INV-0042 (_).pdf"; filename*=UTF-8''Rechnung%20INV-0042%20%28%C3%BC%29.pdf`,
    );
    expect(Buffer.from(await attachment.arrayBuffer()).equals(pdf)).toBe(true);

    const raw = await (await fetch(`${catcher.url}${m.links.raw}`)).text();
    expect(raw).toMatch(/^Content-Type: multipart\/mixed/im);

    // The pages a person reads: the list links the message, and nothing of the mail is taken as markup.
    const listPage = await (await fetch(`${catcher.url}/`)).text();
    expect(listPage).toContain(`<a href="${m.links.page}">Invoice INV-0042 &#60;from&#62; Acme</a>`);
    const page = await (await fetch(`${catcher.url}${m.links.page}`)).text();
    expect(page).toContain(`<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" src="${m.links.html}"`);
    expect(page).toContain(`<a href="${m.attachments[0].url}">Rechnung INV-0042 (ü).pdf</a>`);
    expect(page).toContain('billing@acme.example');
    expect(page).not.toContain('<script>');

    expect((await fetch(`${catcher.url}/messages/999`)).status).toBe(404);
  });

  it('reads in a browser: the HTML part renders in its frame and its script does not run', async () => {
    const [m] = (await (await fetch(`${catcher.url}/api/messages`)).json()) as UntypedJson[];
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`${catcher.url}${m.links.page}`);
      const frame = page.frameLocator('iframe');
      expect(await frame.locator('b').textContent()).toBe('€690.20');
      expect(await frame.locator('a').getAttribute('href')).toBe('http://localhost:3000/i/tok-42');
      expect(await page.locator('pre').textContent()).toContain('Amount due: €690.20');
      expect(dialogs).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('gives way to a free port when the preferred ones are taken', async () => {
    const taken = { smtpPort: Number(new URL(catcher.smtpUrl).port), httpPort: Number(new URL(catcher.url).port) };
    const second = await startMailCatcher(taken);
    try {
      expect(second.smtpUrl).not.toBe(catcher.smtpUrl);
      expect(second.url).not.toBe(catcher.url);
      expect(await (await fetch(`${second.url}/api/messages`)).json()).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
